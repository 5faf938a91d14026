"""Tables: the form that opens one, joining by code, the lobby, the table page and
its actions (take a seat, take it as a guest, leave, move, resign, draw offers, abort, takebacks, a gone player).

Every action is authorised on the server from the session (games.access.Viewer):
only a seat's owner moves for it, only a seated player leaves. htmx requests get
fragments (errors included, nothing changed); plain form posts get redirects.
"""
import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import throttle
from games import endings, seating
from games import services as game_services
from games.access import Viewer
from games.models import Game
from games.presentation import colour_name, computer_label, game_state, time_control_label, variant_label
from games.responses import move_or_undo
from games.errors import GameError
from lobby import actions, rematch
from lobby.access import TableNotFound, TooManyCodeGuesses, can_view, find_table
from lobby.broadcast import lobby_version, table_changed
from lobby.filters import LobbyFilterForm
from lobby.forms import CodeForm, GuestForm, TableForm
from lobby.counts import counts
from lobby.drawing import read_list
from lobby.presentation import render_seats


def guests_not_allowed(view):
    """Tables are opened with an account; visitors see the lobby, watch, and sit as guests."""
    return login_required(view)


# -- opening and finding tables -------------------------------------------------------

@guests_not_allowed
@require_http_methods(["GET", "POST"])
def table_new(request):
    if request.method == "POST":
        form = TableForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                table = actions.open_table(
                    request.user, data["variant"], level=data["level"], listed=data["listed"],
                    host_colour=data["seat"], computer_colours=data["computer"],
                    rated=data["rated"], time_control=data["time"],
                    players_chat=not data["chat_off"])
            except GameError as error:
                form.add_error(None, str(error))
            else:
                return redirect("table", code=table.code)
        status = 400
    else:
        form = TableForm(initial=TableForm.initial_from_query(request.GET))
        status = 200
    return render(request, "lobby/table_new.html", {"form": form, "code_form": CodeForm()}, status=status)


@require_http_methods(["GET", "POST"])
def join_with_code(request):
    """The code form. Signed in: take the first free seat. Otherwise: on to the
    table page, to sign in or take a seat as a guest."""
    form = CodeForm(request.POST or request.GET or None)
    error = None
    if form.is_bound and form.is_valid():
        try:
            table = find_by_code(request, form.cleaned_data["code"], Viewer.from_request(request, create=False))
            if request.method == "POST" and request.user.is_authenticated:
                colour = actions.join(table, Viewer.from_request(request))
                messages.success(request, _("You sit at the %(colour)s seat.") % {"colour": colour_name(colour)})
        except TableNotFound as missing:
            error = missing
        except GameError as refused:
            messages.info(request, str(refused))
            return redirect("table", code=table.code)
        else:
            return redirect("table", code=table.code)
    status = error.status if error else (400 if form.is_bound else 200)
    return render(request, "lobby/join.html", {"code_form": form, "error": error}, status=status)


@require_GET
def lobby(request):
    """One page of the lobby's list for a filter; its socket keeps it current (lobby.feed)."""
    filter_form = LobbyFilterForm(request.GET or None)
    shown, page = filter_form.shown(), filter_form.page()
    version = lobby_version()  # before reading, as the socket does
    tables = read_list(shown, page, version)
    return render(request, "lobby/lobby.html", {
        "tables": tables, "code_form": CodeForm(), "filter_form": filter_form, "shown": shown, "version": version,
        "socket_query": urlencode({**{name: value for name, value in shown.items() if value}, "page": page}),
        "counts": counts()})


def find_by_code(request, code, viewer=None, check_guessing=True):
    """The table with this code, unless this client typed too many codes of no table
    lately: then TooManyCodeGuesses, for a missing table and an existing one alike
    (only its own players still reach it), so guessing learns nothing.
    `check_guessing=False` asks that only of a missing table; the caller asks
    `guessing_stranger` before it answers anything but a player."""
    try:
        table = find_table(code)
    except TableNotFound:
        if throttle.table_code_guessing(request):
            raise TooManyCodeGuesses() from None
        throttle.count_table_code_miss(request)
        raise
    if check_guessing and guessing_stranger(request, table, viewer):
        raise TooManyCodeGuesses()
    return table


def guessing_stranger(request, table, viewer):
    """Whether a client that typed too many wrong codes asks for a table it has no seat at."""
    return throttle.table_code_guessing(request) and (viewer is None or viewer.seat_in(table.game) is None)


# -- the table page --------------------------------------------------------------------

def find(request, code, create_guest=False, check_view=True):
    """(table, viewer, None), or a refusal: 404 for a wrong code, 429 while guessing
    codes, 403 for a private game.

    A guest token goes into the session only when a visitor takes a seat as a guest.
    `check_view=False` leaves the 429 and the 403 to the caller (`hidden_from`)."""
    viewer = Viewer.from_request(request, create=create_guest)
    try:
        table = find_by_code(request, code, viewer, check_guessing=check_view)
    except TableNotFound as missing:
        return None, viewer, not_found(request, code, missing)
    return table, viewer, hidden_from(request, table, viewer, check_guessing=False) if check_view else None


def not_found(request, code, missing):
    return render(request, "lobby/join.html", {"code_form": CodeForm(initial={"code": code}), "error": missing},
                  status=missing.status)


def hidden_from(request, table, viewer, check_guessing=True):
    """The refusal page if `viewer` may not see this table (or, guessing codes, may not
    learn that it exists), else None."""
    if check_guessing and guessing_stranger(request, table, viewer):
        return not_found(request, table.code, TooManyCodeGuesses())
    if can_view(table, viewer):
        return None
    return render(request, "lobby/private.html", {"table": table}, status=403)


@require_GET
def table(request, code):
    table, viewer, refused = find(request, code)
    if refused:
        return refused
    if table.code != code:  # typed in lower case or with dashes: show the canonical link
        return redirect("table", code=table.code)
    game = table.game
    seat = viewer.seat_in(game)
    context = {
        "table": table, "game": game, "seat": seat,
        "my_colour": seat.colour if seat and seat.left_at is None else "",
        "variant_label": variant_label(game.variant),
        "share_url": request.build_absolute_uri(table.get_absolute_url()),
        "server_now_ms": int(timezone.now().timestamp() * 1000),
        "server_now": f"{time.time():.3f}",
        "time_control": time_control_label(game),
        "computer": computer_label(game),
        "move_seconds": f"{settings.MOVE_TIME_LIMIT:g}",
        "seats_html": render_seats(table, viewer, request=request),
        "guest_form": GuestForm(free_colours=seating.free_colours(game))
        if (game.status == Game.Status.WAITING and seat is None and not request.user.is_authenticated
            and not game.rated) else None,
        # A rated table seats accounts only: a visitor is sent to sign in and back.
        "sign_in_to_sit": (game.status == Game.Status.WAITING and seat is None
                           and not request.user.is_authenticated and game.rated),
        "sign_in_query": urlencode({"next": table.get_absolute_url()}),
    }
    if game.status != Game.Status.WAITING:
        context.update(game_state(game))
    return render(request, "lobby/table.html", context)


def done(request, table, message=None, error=None):
    """After an action: htmx reloads the page (HX-Refresh) or shows the error; forms redirect."""
    if request.htmx:
        if error:
            html = render_to_string("lobby/includes/table_message.html", {"error": error})
            return HttpResponse(html, status=error.status)
        if message:
            messages.success(request, message)
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    if error:
        messages.error(request, str(error))
    elif message:
        messages.success(request, message)
    return redirect("table", code=table.code) if table else redirect("home")


@require_POST
def sit(request, code):
    """A signed-in visitor takes the chosen seat (or the first free one)."""
    table, viewer, refused = find(request, code)
    if refused:
        return refused
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?{urlencode({'next': table.get_absolute_url()})}")
    try:
        colour = actions.join(table, viewer, colour=request.POST.get("seat") or None)
    except GameError as error:
        return done(request, table, error=error)
    return done(request, table, _("You sit at the %(colour)s seat.") % {"colour": colour_name(colour)})


@require_POST
def sit_as_guest(request, code):
    """A visitor without an account takes a seat under the name they type."""
    if request.user.is_authenticated:
        return sit(request, code)
    table, viewer, refused = find(request, code, create_guest=True)
    if refused:
        return refused
    form = GuestForm(request.POST)
    try:
        if not form.is_valid():
            raise GameError(" ".join(str(e) for errors in form.errors.values() for e in errors))
        colour = actions.join(table, viewer, colour=form.cleaned_data["seat"] or None,
                               guest_name=form.cleaned_data["name"])
    except GameError as error:
        return done(request, table, error=error)
    return done(request, table, _("You sit at the %(colour)s seat as a guest.") % {"colour": colour_name(colour)})


@require_http_methods(["GET", "POST"])
def leave(request, code):
    """GET asks for confirmation; POST leaves (before the start: gives the seat back)."""
    table, viewer, refused = find(request, code)
    if refused:
        return refused
    seat = viewer.seat_in(table.game)
    if request.method == "GET":
        if seat is None:
            return redirect("table", code=table.code)
        return render(request, "lobby/leave.html", {"table": table, "game": table.game, "seat": seat,
                                                    "colour": colour_name(seat.colour),
                                                    **giving_up(table, seat)})
    if table.game.is_over:
        return leave_after_game(request, table, viewer)
    try:
        outcome = actions.leave(table, viewer)
    except GameError as error:
        return done(request, table, error=error)
    if outcome == "closed":
        messages.info(request, _("You left, and the table is closed."))
        return redirect("lobby" if request.user.is_authenticated else "home")
    if outcome == "freed":
        return done(request, table, _("You gave up your seat."))
    return done(request, table, _("You left the table and lose this game. The computer plays %(colour)s to the end.")
                % {"colour": colour_name(seat.colour)})


def giving_up(table, seat):
    """What giving up `seat` before the start does (as lobby.actions.leave does it):
    `closes` when nobody else sits at the table; else `new_host`, the name of who
    hosts the table when its host gives up their seat ("" for nobody new)."""
    others = [s for s in table.game.seats.select_related("user__profile")
              if s.pk != seat.pk and not s.is_computer and not seating.seat_is_free(s)]
    hosting = seat.user_id is not None and seat.user_id == table.host_id
    new_host = next((s.display_name for s in others if s.user_id), "") if hosting else ""
    return {"closes": not others, "new_host": new_host}
@require_http_methods(["GET", "POST"])
def resign(request, code):
    """GET asks for confirmation; POST resigns (games.endings.resign). With JavaScript
    the table page asks in a dialog and sends the resign over the game's socket."""
    table, viewer, refused = find(request, code)
    if refused:
        return refused
    game = table.game
    seat = viewer.seat_in(game)
    if request.method == "GET":
        if seat is None:
            return redirect("table", code=table.code)
        return render(request, "lobby/resign.html", {"table": table, "game": game})
    try:
        endings.resign(game, viewer)
    except GameError as error:
        return done(request, table, error=error)
    if game.variant_obj.players > 2:  # a leave: the seats panel says so (a finished game tells it itself)
        table_changed(table.pk, lobby=False)
    return done(request, table)


@require_POST
def abort(request, code):
    """Abort the game before every player has moved (games.endings.abort)."""
    table, viewer, refused = find(request, code)
    if refused:
        return refused
    try:
        endings.abort(table.game, viewer)
    except GameError as error:
        return done(request, table, error=error)
    return done(request, table)


DRAW_ANSWERS = {"offer": endings.offer_draw, "accept": endings.accept_draw, "decline": endings.decline_draw}
TAKEBACK_ANSWERS = {"request": endings.request_takeback, "accept": endings.accept_takeback,
                    "decline": endings.decline_takeback}


def answer_view(answers, unknown):
    """A POST view that calls answers[the form's `answer`](game, viewer); `unknown` is the
    refusal of any other answer."""
    @require_POST
    def view(request, code):
        table, viewer, refused = find(request, code)
        if refused:
            return refused
        answer = answers.get(request.POST.get("answer", ""))
        try:
            if answer is None:
                raise GameError(unknown())
            answer(table.game, viewer)
        except GameError as error:
            return done(request, table, error=error)
        return done(request, table)
    return view


GONE_ANSWERS = {"claim": endings.claim_win, "computer": endings.computer_for_gone}
# Offer a draw, or accept or decline the opponent's.
draw = answer_view(DRAW_ANSWERS, lambda: _("Offer a draw, or accept or decline one."))
# Ask to take back one's last move, or allow or decline the opponent's request.
takeback = answer_view(TAKEBACK_ANSWERS, lambda: _("Ask for a takeback, or allow or decline one."))
# The player to move is gone: claim the win, or let the computer play for them.
gone = answer_view(GONE_ANSWERS, lambda: _("Claim the win, or let the computer play for the gone player."))


@require_POST
def move(request, code):
    """A move at a table: only the owner of the seat to move, at the expected ply.

    play_move checks the seat itself, so whether the viewer may see the table at all
    (or is a stranger guessing codes) is asked only of a refused move (a stranger to
    a private table gets the 403 page, not the position): a player's move reads the
    seats once and no counter."""
    table, viewer, refused = find(request, code, check_view=False)
    if refused:
        return refused
    game, square = table.game, request.POST.get("square", "")
    return move_or_undo(request, game,
                        lambda ply: game_services.play_move(game, square, expected_ply=ply, viewer=viewer),
                        hidden=lambda: hidden_from(request, table, viewer))


def leave_after_game(request, table, viewer):
    """Leaving a table whose game ended: no rematch for anyone; on to the lobby."""
    try:
        rematch.decline(table, viewer, table.game.public_id)
    except GameError as error:
        return done(request, table, error=error)
    table_changed(table.pk, lobby=table.listed)
    messages.info(request, _("You left the table."))
    target = reverse("lobby" if request.user.is_authenticated else "home")
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Redirect": target})
    return redirect(target)
