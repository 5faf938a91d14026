"""The review's pages: the review of a stored or imported game, the downloads,
sharing, analysis and My games (what each URL does: games/review/__init__.py)."""
from urllib.parse import parse_qsl

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse, HttpResponseForbidden, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import analysis as analysis_service
from games import creation, services
from games.access import Viewer, find_game
from games.charts import stone_chart
from games.history import game_row, your_turn_games
from games.models import Game, GameAnalysis, Move
from games.params import whole_number
from games.presentation import (
    board_view, colour_name, counts_view, move_sentence, result_sentence, score_sentence, variant_label,
)
from games.review.forms import GamesFilter, ImportForm
from games.review.records import game_record, import_query, players_in_query, replay_game, replay_moves
from games.errors import GameError, NotAPlayer

GAMES_PER_PAGE = 20


# -- the review page ---------------------------------------------------------------

def requested_ply(request, last):
    """?ply=N clamped to the game; the last position when absent or unreadable."""
    ply = whole_number(request.GET.get("ply"), default=last)
    return min(max(ply, 0), last)


MADE_BY_NOTES = {
    Move.MadeBy.TIMEOUT: gettext_lazy("The computer moved for %(name)s, who ran out of time."),
    Move.MadeBy.LEAVER: gettext_lazy("The computer moved for %(name)s, who had left the table."),
}
MADE_BY_TAGS = {
    Move.MadeBy.TIMEOUT: gettext_lazy("time-out"),
    Move.MadeBy.LEAVER: gettext_lazy("left"),
}
TERMINATIONS = {
    "board_full": gettext_lazy("The board is full."),
    "no_moves": gettext_lazy("Neither player can move."),
    "cut_off": gettext_lazy("No empty square touches a stone."),
}


# Games that ended before the board did (docs/rules.md §4.1), scored by Board.decided.
EARLY_ENDINGS = {
    Game.Ending.RESIGNED: gettext_lazy("Ended early by a resignation."),
    Game.Ending.AGREED: gettext_lazy("Ended early: the players agreed a draw."),
    Game.Ending.CLAIMED: gettext_lazy("Ended early: the player to move was gone and the win was claimed."),
}


def outcome_sentence(replay):
    """'Black wins 40–24 (Black 40, White 24).' for a record that is not stored (an import)."""
    outcome = replay.final.outcome()
    if outcome is None:
        return ""
    return score_sentence(outcome.winner or "", outcome.score, replay.variant.colours, counts=outcome.counts)


def ending_sentence(replay, game=None):
    """How the game ended: a forfeit, or what the final position shows. A loss on time
    is already in the result (presentation.result_sentence): only the position is added."""
    outcome = replay.final.outcome()
    if game is not None and game.flagged:
        return str(TERMINATIONS[outcome.termination]) if outcome else ""
    if game is not None and game.ending in EARLY_ENDINGS:
        return str(EARLY_ENDINGS[game.ending])
    if game is not None and game.ending == Game.Ending.FORFEIT:
        text = _("A player left; the computer played their side to the end.")
        return f"{text} {TERMINATIONS[outcome.termination]}" if outcome else text
    return str(TERMINATIONS[outcome.termination]) if outcome else ""


def review_context(replay, ply, url_for, *, names, analysis=None):
    """Everything the #review region shows at `ply`.

    `url_for(n)` is the URL of ply n; `names` maps colours to who played them;
    `analysis` is games.analysis.summary() or None.
    """
    board = replay.board_at(ply)
    current = replay.plies[ply - 1] if ply else None
    last_square = current.square if current is not None and not current.is_pass else None
    entries = analysis["entries"] if analysis else {}
    mistakes = set(analysis["mistakes"]) if analysis else set()

    if current is None:
        position = _("Start position: %(who)s to move.") % {"who": colour_name(board.turn)} \
            if not board.is_game_over() else _("Start position.")
        heading = _("Start")
        note = ""
    else:
        position = move_sentence(current)
        heading = _("Move %(ply)d of %(last)d") % {"ply": ply, "last": replay.last}
        name = names.get(current.colour, colour_name(current.colour))
        note_text = MADE_BY_NOTES.get(current.made_by)
        if note_text:
            note = note_text % {"name": name}
        elif current.made_by == Move.MadeBy.AUTO or current.is_pass:
            note = ""
        else:
            note = _("Played by %(name)s.") % {"name": name}
    entry = entries.get(ply) if current is not None else None

    nav = []
    for key, label, target, shortcut in (
        ("first", _("First"), 0, "Home"),
        ("prev", _("Previous"), ply - 1, "ArrowLeft"),
        ("next", _("Next"), ply + 1, "ArrowRight"),
        ("last", _("Last"), replay.last, "End"),
    ):
        usable = 0 <= target <= replay.last and target != ply
        nav.append({"key": key, "label": label, "url": url_for(target) if usable else None, "shortcut": shortcut})

    moves = []
    for item in replay.plies:
        item_entry = entries.get(item.ply)
        moves.append({
            "ply": item.ply,
            "colour": item.colour,
            "colour_name": colour_name(item.colour),
            "who": names.get(item.colour, ""),
            "square": item.square,
            "is_pass": item.is_pass,
            "url": url_for(item.ply),
            "current": item.ply == ply,
            "tag": MADE_BY_TAGS.get(item.made_by, ""),
            "tag_title": dict(Move.MadeBy.choices).get(item.made_by, "") if item.made_by in MADE_BY_TAGS else "",
            "entry": item_entry if item_entry and not item_entry.get("forced") else None,
            "forced": bool(item_entry and item_entry.get("forced")),
            "mistake": item.ply in mistakes,
        })

    announcement = f"{heading}. {position}"
    return {
        "ply": ply,
        "last_ply": replay.last,
        "heading": heading,
        "position": position,
        "made_by_note": note,
        "mover_name": colour_name(current.colour) if current is not None else "",
        "entry": entry if entry and not entry.get("forced") else None,
        "current_mistake": ply in mistakes,
        "board": board_view(board, last_move=last_square, flips=current.flips if current else (),
                            show_legal=False),
        "counts": counts_view(board),
        "nav": nav,
        "moves": moves,
        "chart": stone_chart(replay.series, replay.variant.colours, current=ply,
                             marks=sorted(mistakes)),
        "analysis": analysis,
        "announcement": announcement,
        "ply_url": url_for(ply),
    }


def render_review(request, context, template="games/review.html"):
    """The whole page, or for htmx (not a history restore) only the #review region."""
    if request.htmx and not request.htmx.history_restore_request:
        template = "games/review_partial.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request",))
    return response


def seat_name(game, seat):
    """Who played a seat; nobody for an imported game's player whom the record did not name."""
    if game.kind == Game.Kind.IMPORTED:
        return seat.guest_name
    return str(seat.display_name)


def names_by_colour(game, seats):
    return {seat.colour: name for seat in seats if (name := seat_name(game, seat))}


@require_GET
def review(request, public_id):
    game, viewer = find_game(request, public_id, create_guest=False)
    return render_review(request, game_review_context(request, game, viewer))


def game_review_context(request, game, viewer, ply=None, error=None):
    replay = replay_game(game)
    seats = list(game.seats.select_related("user"))
    my_seat = viewer.seat_among(seats)
    ply = requested_ply(request, replay.last) if ply is None else min(max(ply, 0), replay.last)
    base = reverse("review", args=[game.public_id])
    record = GameAnalysis.objects.filter(game=game).first()
    summary = analysis_service.summary(record, replay.history, replay.plies)
    context = review_context(replay, ply, lambda n: f"{base}?ply={n}", names=names_by_colour(game, seats),
                             analysis=summary)
    context.update(
        game=game,
        imported=False,
        variant_label=variant_label(game.variant),
        players=[{"colour": seat.colour, "colour_name": colour_name(seat.colour), "name": seat_name(game, seat),
                  "username": seat.user.get_username() if seat.user_id else "", "you": seat == my_seat,
                  "computer": seat.is_computer, "left": seat.left_at is not None}
                 for seat in seats],
        is_player=my_seat is not None,
        result=result_sentence(game, seats, you=my_seat.colour if my_seat else None),
        ending=ending_sentence(replay, game) if game.is_over and not game.is_abandoned else "",
        transcript=replay.final.transcript(),
        share_url=request.build_absolute_uri(base),
        can_analyse=game.is_over,
        analysis_error=error,
    )
    return context



# -- records ------------------------------------------------------------------------

@require_GET
def transcript(request, public_id):
    game, _viewer = find_game(request, public_id, create_guest=False)
    response = HttpResponse(replay_game(game).final.transcript() + "\n", content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="reversi-{game.public_id}.txt"'
    return response


@require_GET
def record(request, public_id):
    game, _viewer = find_game(request, public_id, create_guest=False)
    response = JsonResponse(game_record(game, request.build_absolute_uri(reverse("review", args=[game.public_id]))), json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="reversi-{game.public_id}.json"'
    return response



# -- import ---------------------------------------------------------------------------

@require_http_methods(["GET", "POST"])
def import_game(request):
    """The import form (POST: check it, then show the game at a shareable GET URL);
    GET with ?moves=... reviews the imported game without storing it."""
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            board = form.cleaned_data["replayed"]
            query = import_query(board.variant, board.transcript(), form.cleaned_data["players_known"])
            return redirect(f"{reverse('review_import')}?{query}")
        return render(request, "games/review_import.html", {"form": form}, status=400)
    if "moves" not in request.GET:
        return render(request, "games/review_import.html", {"form": ImportForm()})
    form = form_from_query(request.GET)
    if not form.is_valid():
        return render(request, "games/review_import.html", {"form": form}, status=400)
    board = form.cleaned_data["replayed"]
    replay = replay_moves(board.variant, list(board.history))
    players = players_in_query(request.GET, board.variant)
    names = players.names
    query = import_query(board.variant, board.transcript(), players)
    base = f"{reverse('review_import')}?{query}"
    ply = requested_ply(request, replay.last)
    context = review_context(replay, ply, lambda n: f"{base}&ply={n}", names=names)
    context.update(
        game=None,
        imported=True,
        variant_label=variant_label(board.variant),
        players=[{"colour": c, "colour_name": colour_name(c), "name": names.get(c, "")} for c in board.variant.colours],
        result=outcome_sentence(replay),
        ending=ending_sentence(replay),
        transcript=board.transcript(),
        share_url=request.build_absolute_uri(base),
        import_fields=parse_qsl(query) if replay.final.outcome() is not None else None,
    )
    return render_review(request, context)


def form_from_query(query):
    """The ImportForm of an import's review address (?board=...&moves=...)."""
    data = query.copy()
    data["transcript"] = data.get("moves", "")
    for name, form_field in ImportForm.base_fields.items():
        if name not in data and form_field.initial is not None:
            data[name] = form_field.initial
    return ImportForm(data)


@require_POST
def analyse_import(request):
    """The importer of a finished game asks for its analysis: the game is stored as
    theirs (once, creation.store_import) and analysed like any other."""
    form = form_from_query(request.POST)
    if not form.is_valid():
        return render(request, "games/review_import.html", {"form": form}, status=400)
    board = form.cleaned_data["replayed"]
    players = players_in_query(request.POST, board.variant)
    try:
        game = creation.store_import(Viewer.from_request(request), board.variant, list(board.history),
                                     players.names, players.computers)
        analysis_service.request_analysis(game)
    except (GameError, analysis_service.AnalysisRefused) as error:
        messages.error(request, str(error))
        return redirect(f"{reverse('review_import')}?{import_query(board.variant, board.transcript(), players)}")
    return redirect("review", game.public_id)


# -- sharing and analysis ------------------------------------------------------------------

def back_to_review(request, game):
    url = reverse("review", args=[game.public_id])
    ply = whole_number(request.POST.get("ply"))
    return redirect(f"{url}?ply={ply}" if ply is not None else url)


@require_POST
def set_public(request, public_id):
    """A player makes a finished game public (anyone with the link may review it) or private."""
    game, viewer = find_game(request, public_id, create_guest=False)
    public = request.POST.get("public", "") in {"1", "true", "on", "yes"}
    try:
        services.set_public(game, viewer, public)
    except NotAPlayer as error:
        return HttpResponseForbidden(str(error))
    except GameError as error:
        if request.htmx:
            return HttpResponse(str(error), status=400)
        messages.error(request, str(error))
        return back_to_review(request, game)
    if request.htmx:
        return render(request, "games/includes/review_share.html", {
            "game": game, "is_player": True,
            "share_url": request.build_absolute_uri(reverse("review", args=[game.public_id])),
        })
    messages.success(request, _("Anyone with the link can now review this game.") if public
                     else _("Only the players can see this game now."))
    return back_to_review(request, game)


@require_POST
def analyse(request, public_id):
    """Anyone who may see a finished game asks the computer to analyse it (once; stored)."""
    game, viewer = find_game(request, public_id, create_guest=False)
    error = None
    try:
        analysis_service.request_analysis(game)
    except analysis_service.AnalysisRefused as refused:
        error = str(refused)
    if request.htmx:
        ply = whole_number(request.POST.get("ply"))
        response = render(request, "games/review_partial.html",
                          game_review_context(request, game, viewer, ply=ply, error=error),
                          status=400 if error else 200)
        response["HX-Push-Url"] = "false"
        return response
    if error:
        messages.error(request, error)
    return back_to_review(request, game)


# -- My games ----------------------------------------------------------------------------------
@require_GET
def my_games(request):
    """Every game the viewer played (account and this browser's guest session), newest first."""
    viewer = Viewer.from_request(request, create=False)
    form = GamesFilter(request.GET)
    games = form.filter(viewer.games(), viewer).prefetch_related("seats__user", "tables").order_by("-created_at", "-pk")
    page = Paginator(games, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    rows = [game_row(game, viewer.seat_in(game), viewer) for game in page]
    # Correspondence games waiting on this player come first, with the time left.
    waiting = your_turn_games(viewer.user).prefetch_related("seats__user", "tables") if page.number == 1 else []
    return render(request, "games/my_games.html", {
        "your_turn": [game_row(game, viewer.seat_in(game), viewer) for game in waiting],
        "page": page, "rows": rows, "filter": form, "query": form.query(),
        "filtered": any(form.data.get(name) for name in form.fields),
    })
