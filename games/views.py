"""Playing against the computer: the setup form, the game page and its actions.

Views stay thin: they find the game and the viewer, call games.services, and
answer htmx requests with the state fragment (errors included, nothing changed)
or, without JavaScript, redirect back to the game page.
"""
from django.contrib import messages
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import creation, services
from games.access import Viewer, find_game
from games.forms import LevelForm, PlayForm, variant_query
from games.models import Game, HandicapSide, Level
from games.presentation import colour_name, game_state, variant_label
from games.responses import move_or_undo, respond
from games.errors import ComputerBusy, GameError
from games.thinking import Asker


@require_http_methods(["GET", "POST"])
def play(request):
    """The setup form (prefilled from the query string) and starting a game."""
    if request.method == "POST":
        form = PlayForm(request.POST)
        status = 400
        if form.is_valid():
            viewer = Viewer.from_request(request)
            try:
                data = form.cleaned_data
                game = creation.create_computer_game(viewer, data["variant"], data["level"],
                                                     colour=data["human_colour"], handicap_side=data["handicap_side"],
                                                     asker=Asker.from_request(request, viewer))
            except ComputerBusy as busy:
                form.add_error(None, str(busy))
                status = busy.status
            else:
                return redirect("play_game", public_id=game.public_id)
    else:
        form = PlayForm(initial=PlayForm.initial_from_query(request.GET))
        status = 200
    viewer = Viewer.from_request(request, create=False)
    return render(request, "games/play.html", {"form": form, "unfinished": unfinished_games(viewer)}, status=status)


def unfinished_games(viewer, limit=5):
    """The viewer's running computer games, each told apart from the others by its
    variant, level, the viewer's colour, the move reached and when it started."""
    games = (viewer.games().filter(kind=Game.Kind.COMPUTER, status=Game.Status.PLAYING)
             .prefetch_related("seats").order_by("-created_at", "-pk")[:limit])
    items = []
    for game in games:
        seat = viewer.seat_in(game)
        items.append({
            "game": game, "label": variant_label(game.variant), "level": game.get_level_display(),
            "colour": seat.colour if seat else "", "colour_name": colour_name(seat.colour) if seat else "",
            "move": game.ply + 1,
        })
    return items


@require_GET
def game_page(request, public_id):
    game, viewer = find_game(request, public_id)
    seat = viewer.seat_in(game)
    context = game_state(game)
    context.update(
        seat=seat,
        my_colour=seat.colour if seat else "",
        my_colour_name=colour_name(seat.colour) if seat else "",
        variant_label=variant_label(game.variant),
        level_form=LevelForm(initial={"level": game.level}),
        levels=Level.choices,
        new_game_query=variant_query(game.variant_obj, game.level, handicap_side=handicap_side(game, seat)),
    )
    return render(request, "games/game.html", context)


@require_POST
def move(request, public_id):
    game, viewer = find_game(request, public_id)
    square = request.POST.get("square", "")
    asker = Asker.from_request(request, viewer)
    return move_or_undo(request, game, lambda ply: services.play_move(game, square, expected_ply=ply, viewer=viewer,
                                                                      asker=asker))


@require_POST
def undo(request, public_id):
    game, viewer = find_game(request, public_id)
    return move_or_undo(request, game, lambda ply: services.undo(game, viewer, expected_ply=ply))


@require_POST
def level(request, public_id):
    game, viewer = find_game(request, public_id)
    form = LevelForm(request.POST)
    try:
        if not form.is_valid():
            raise GameError(_("Choose Easy, Normal or Hard."))
        game = services.set_level(game, viewer, form.cleaned_data["level"])
    except GameError as error:
        return respond(request, game, error)
    if request.htmx:
        return HttpResponse(status=204)
    return redirect("play_game", public_id=game.public_id)


@require_POST
def play_again(request, public_id):
    """New Game: the same variant (blocked squares drawn again), colours drawn again,
    a handicap to the same side as before. The game left behind, if still running,
    ends as abandoned, once the player has confirmed it."""
    game, viewer = find_game(request, public_id)
    seat = viewer.seat_in(game)
    if game.status == Game.Status.PLAYING and seat and request.POST.get("confirm") != "1":
        return render(request, "games/new_game.html", {"game": game})  # ask first (scripts ask in a dialog)
    variant = game.variant_obj
    fresh = creation.build_variant(**{**variant.to_dict(), "blocked": len(variant.blocked)})
    try:
        with transaction.atomic():  # refused, the game left behind stays as it was
            services.abandon(game, viewer)
            new = creation.create_computer_game(viewer, fresh, game.level, handicap_side=handicap_side(game, seat),
                                                asker=Asker.from_request(request, viewer))
    except ComputerBusy as busy:
        messages.error(request, str(busy))
        return redirect("play_game", public_id=game.public_id)
    return redirect("play_game", public_id=new.public_id)


def handicap_side(game, seat):
    """Which side a game's corner handicap went to, seen from `seat` (None: no handicap)."""
    variant = game.variant_obj
    if not variant.handicap:
        return None
    return HandicapSide.ME if seat and seat.colour == variant.handicap_colour else HandicapSide.COMPUTER
