"""Afterwards: My games, the review page, records (export and import), sharing and analysis.

URLs (games/review_urls.py):

    /games/                        my_games           the viewer's games, filtered, paginated
    /games/import/                 review_import      paste or upload a record; ?moves=... shows it
    /games/<id>/?ply=N             review             the board at any ply, moves, chart, result, analysis
    /games/<id>/transcript.txt     review_transcript  RULES §10 transcript
    /games/<id>/record.json        review_record      the full record as JSON
    /games/<id>/public/            review_public      POST, players only: share a finished game or not
    /games/<id>/analysis/          review_analyse     POST, anyone who may see a finished game

Who sees a game is decided by games.access.can_watch (its players always, anyone
once it is public); anyone else gets 404, so a private game's existence is never
revealed. The review works without JavaScript (every step is a link with ?ply=N);
with htmx only the #review region is swapped and the URL pushed. Imported games
are not stored: the review of an import carries the variant and the moves in its
query string, so it can be stepped through, bookmarked and shared like any other.
"""
import json
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Q
from django.http import Http404, HttpResponse, HttpResponseForbidden, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import Board, IllegalMoveError, InvalidVariantError, NotationError, Variant, parse_transcript
from games import analysis as analysis_service
from games.access import can_watch
from games.charts import stone_chart
from games.forms import VariantForm
from games.models import Game, GameAnalysis, Move, Seat
from games.params import whole_number
from games.presentation import (
    BOARD_NAMES, board_view, colour_name, counts_view, game_url, move_sentence, result_sentence, score_sentence,
    scores_text, variant_label,
)
from games.services import Viewer
from games.variant_errors import variant_error_message

# The largest record accepted for import (a 4-player 10x10 game is about 300 characters;
# a JSON record with every flip listed stays well below this).
MAX_RECORD_BYTES = 64 * 1024
# A record nests four deep (moves > move > flips); Python's json module recurses
# once per level and fails with RecursionError near a thousand.
MAX_RECORD_DEPTH = 8
GAMES_PER_PAGE = 20


# -- finding games -------------------------------------------------------------

def find_game(request, public_id):
    """The game and the viewer, if this viewer may see it; 404 otherwise.

    No guest token is created: a visitor following a public link stays anonymous.
    """
    viewer = Viewer.from_request(request, create=False)
    game = Game.objects.filter(public_id=public_id).prefetch_related("seats").first()
    if game is None or not can_watch(game, viewer):
        raise Http404("No such game.")
    return game, viewer


# -- replaying a record ----------------------------------------------------------

@dataclass
class Ply:
    """One move of a record, stored or imported (what move_sentence needs and more)."""

    ply: int
    colour: str
    square: str
    flips: list = field(default_factory=list)
    made_by: str = ""

    @property
    def is_pass(self):
        return self.square == "pass"


@dataclass
class Replay:
    variant: Variant
    plies: list          # [Ply], ply 1 first
    series: list         # stones per colour after every ply, ply 0 first
    final: Board         # the position after the last ply

    @property
    def last(self):
        return len(self.plies)

    def board_at(self, ply):
        board = Board(self.variant)
        for item in self.plies[:ply]:
            board.push(item.square)
        return board

    @property
    def history(self):
        return " ".join(item.square for item in self.plies)


def replay_moves(variant, moves, stored=None):
    """Replay `moves` (square names and 'pass') from the start of `variant`.

    `stored` are the Move rows the moves came from, whose colour, flips and
    made_by are kept; IllegalMoveError if the record breaks the rules.
    """
    board = Board(variant)
    plies, series = [], [board.counts()]
    for number, square in enumerate(moves, 1):
        colour = board.turn
        board.push(square)
        made_by = stored[number - 1].made_by if stored else ""
        plies.append(Ply(number, colour, square, board.last_flips, made_by))
        series.append(board.counts())
    return Replay(variant, plies, series, board)


def replay_game(game):
    moves = list(game.moves.order_by("ply"))
    return replay_moves(game.variant_obj, [m.square for m in moves], stored=moves)


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


def outcome_sentence(replay):
    """'Black wins 40–24 (Black 40, White 24).' for a record that is not stored (an import)."""
    outcome = replay.final.outcome()
    if outcome is None:
        return ""
    return score_sentence(outcome.winner or "", outcome.score, replay.variant.colours)


def ending_sentence(replay, game=None):
    """How the game ended: a forfeit, or what the final position shows."""
    outcome = replay.final.outcome()
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


def names_by_colour(seats):
    return {seat.colour: str(seat.display_name) for seat in seats}


@require_GET
def review(request, public_id):
    game, viewer = find_game(request, public_id)
    return render_review(request, game_review_context(request, game, viewer))


def game_review_context(request, game, viewer, ply=None, error=None):
    replay = replay_game(game)
    seats = list(game.seats.select_related("user"))
    my_seat = next((seat for seat in seats if seat.belongs_to(viewer)), None)
    ply = requested_ply(request, replay.last) if ply is None else min(max(ply, 0), replay.last)
    base = reverse("review", args=[game.public_id])
    record = GameAnalysis.objects.filter(game=game).first()
    summary = analysis_service.summary(record, replay.history, [item.colour for item in replay.plies])
    context = review_context(replay, ply, lambda n: f"{base}?ply={n}", names=names_by_colour(seats),
                             analysis=summary)
    context.update(
        game=game,
        imported=False,
        variant_label=variant_label(game.variant),
        players=[{"colour": seat.colour, "colour_name": colour_name(seat.colour), "name": seat.display_name,
                  "username": seat.user.get_username() if seat.user_id else "", "you": seat == my_seat, "computer": seat.is_computer, "left": seat.left_at is not None}
                 for seat in seats],
        is_player=my_seat is not None,
        result=result_sentence(game, seats),
        ending=ending_sentence(replay, game) if game.is_over and not game.is_abandoned else "",
        transcript=replay.final.transcript(),
        share_url=request.build_absolute_uri(base),
        can_analyse=game.is_over,
        analysis_error=error,
    )
    return context


# -- records ------------------------------------------------------------------------

def game_record(request, game):
    """The JSON record of a stored game (RULES §10 plus who played and how it ended)."""
    replay = replay_game(game)
    seats = list(game.seats.select_related("user"))
    return {
        "format": "reversi-record",
        "version": 1,
        "id": game.public_id,
        "url": request.build_absolute_uri(reverse("review", args=[game.public_id])),
        "kind": game.kind,
        "variant": game.variant_obj.to_dict(),
        "variant_label": game.variant_obj.label,
        "players": [{"colour": seat.colour, "name": str(seat.display_name), "computer": seat.is_computer,
                     "left": seat.left_at is not None} for seat in seats],
        "moves": [{"ply": item.ply, "colour": item.colour, "square": item.square, "flips": item.flips,
                   "made_by": item.made_by} for item in replay.plies],
        "transcript": replay.final.transcript(),
        "status": game.status,
        "result": {
            "winner": game.winner or None,
            "counts": game.counts,
            "score": game.score,
            "ending": game.ending,
            "forfeited": game.forfeited,
        } if game.is_over else None,
        "created_at": game.created_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }


@require_GET
def transcript(request, public_id):
    game, _viewer = find_game(request, public_id)
    response = HttpResponse(replay_game(game).final.transcript() + "\n", content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="reversi-{game.public_id}.txt"'
    return response


@require_GET
def record(request, public_id):
    game, _viewer = find_game(request, public_id)
    response = JsonResponse(game_record(request, game), json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="reversi-{game.public_id}.json"'
    return response


# -- import ---------------------------------------------------------------------------

def illegal_move_message(variant, moves, error):
    """'Move 12 (d9) is not legal: that square is already taken.', translated."""
    number = error.number
    if number is None:
        return _("The record cannot be replayed.")
    if error.move is None:
        return _("Move %(number)d cannot be read.") % {"number": number}
    move = error.move
    try:
        board = Board.from_transcript(variant, list(moves[:number - 1]))
    except IllegalMoveError:  # pragma: no cover - the moves before the first illegal one are legal
        board = None
    reason = _("it is not allowed here")
    if board is not None:
        geometry = board.geometry
        if board.is_game_over():
            reason = _("the game was already over")
        elif move == "pass":
            reason = _("a player may only pass when they have no legal move")
        elif not _is_square(geometry, move):
            reason = _("there is no such square on this board")
        elif not geometry.is_playable(move):
            reason = _("that square is not part of the board")
        elif move in board.stones():
            reason = _("that square is already taken")
        elif variant.free_opening and geometry.centre & ~board.occupied:
            reason = _("the first four moves go on the central squares")
        elif variant.players == 2 or any(board.flips(m) for m in board.legal_moves):
            reason = _("it flips no stones")
        else:
            reason = _("it touches no stone")
    return _("Move %(number)d (%(move)s) is not legal: %(reason)s.") % {
        "number": number, "move": move, "reason": reason}


def _is_square(geometry, name):
    try:
        geometry.square_index(name)
    except ValueError:
        return False
    return True


class ImportForm(VariantForm):
    """A transcript with its variant, or a JSON record (which carries its variant)."""

    transcript = forms.CharField(
        label=gettext_lazy("Transcript"), required=False, max_length=MAX_RECORD_BYTES,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "autocomplete": "off",
                                     "placeholder": "f5d6c3d3c4f4f6f3e6e7"}),
        help_text=gettext_lazy("The moves run together, as in f5d6c3d3…; spaces, commas and passes are fine. "
                               "A JSON record can be pasted too."))
    file = forms.FileField(
        label=gettext_lazy("…or upload a file"), required=False,
        help_text=gettext_lazy("A transcript (.txt) or a record (.json) downloaded from this site."))
    blocked = forms.CharField(
        label=gettext_lazy("Blocked squares"), required=False, max_length=60,
        help_text=gettext_lazy("Their names, e.g. b3 g6; empty for none."))

    field_order = ["transcript", "file"]

    def clean(self):
        data = forms.Form.clean(self)
        if self.errors:
            return data
        text = self.read_text(data)
        if text.lstrip().startswith("{"):
            variant, moves = self.parse_record(text)
        else:
            variant = self.variant_from_fields(data)
            moves = text
        try:
            board = Board.from_transcript(variant, moves)
        except IllegalMoveError as error:
            try:
                listed = moves if isinstance(moves, list) else parse_transcript(moves)
            except NotationError:
                listed = []
            raise forms.ValidationError(illegal_move_message(variant, listed, error), code="illegal_move") from None
        data["variant"] = variant
        data["replayed"] = board
        return data

    def read_text(self, data):
        upload = data.get("file")
        if upload:
            if upload.size > MAX_RECORD_BYTES:
                raise forms.ValidationError(_("The file is too large for a game record."), code="too_large")
            try:
                return upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not a text file."), code="not_text") from None
        text = data.get("transcript") or ""
        if not text.strip():
            raise forms.ValidationError(_("Paste a transcript or choose a file."), code="empty")
        return text

    def variant_from_fields(self, data):
        try:
            return Variant(board=data["board"], players=data["players"], anti=data["anti"],
                           free_opening=data["free_opening"], blocked=(data.get("blocked") or "").replace(",", " "),
                           handicap=data["handicap"], handicap_colour=data["handicap_colour"])
        except InvalidVariantError as error:
            raise forms.ValidationError(variant_error_message(error), code="invalid_variant") from None

    @staticmethod
    def parse_record(text):
        if json_depth(text) > MAX_RECORD_DEPTH:
            raise forms.ValidationError(_("This JSON record is nested too deeply to be a game record."),
                                        code="too_deep")
        try:
            record = json.loads(text)
        except ValueError:
            raise forms.ValidationError(_("This is not a valid JSON record."), code="bad_json") from None
        if not isinstance(record, dict) or not isinstance(record.get("variant"), dict):
            raise forms.ValidationError(_("A JSON record needs its variant and its moves."), code="bad_record")
        try:
            variant = Variant.from_dict(record["variant"])
        except InvalidVariantError as error:
            raise forms.ValidationError(variant_error_message(error), code="invalid_variant") from None
        except TypeError:  # a value of the wrong kind
            raise forms.ValidationError(_("The record's variant cannot be read."), code="invalid_variant") from None
        moves = record.get("moves")
        if isinstance(moves, list):
            squares = []
            for item in moves:
                square = item.get("square") if isinstance(item, dict) else item
                if not isinstance(square, str):
                    raise forms.ValidationError(_("A JSON record needs its variant and its moves."),
                                                code="bad_record")
                squares.append(square)
            return variant, squares
        if isinstance(record.get("transcript"), str):
            return variant, record["transcript"]
        raise forms.ValidationError(_("A JSON record needs its variant and its moves."), code="bad_record")


def json_depth(text):
    """How deeply arrays and objects nest in `text` (JSON or not), without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def import_query(variant, transcript_text):
    """The query string of the review of an imported game."""
    params = {"board": variant.board}
    if variant.players != 2:
        params["players"] = variant.players
    for flag in ("anti", "free_opening"):
        if getattr(variant, flag):
            params[flag] = 1
    if variant.blocked:
        params["blocked"] = " ".join(variant.blocked)
    if variant.handicap:
        params["handicap"] = variant.handicap
        params["handicap_colour"] = variant.handicap_colour
    params["moves"] = transcript_text
    return urlencode(params)


@require_http_methods(["GET", "POST"])
def import_game(request):
    """The import form (POST: check it, then show the game at a shareable GET URL);
    GET with ?moves=... reviews the imported game without storing it."""
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            board = form.cleaned_data["replayed"]
            return redirect(f"{reverse('review_import')}?{import_query(board.variant, board.transcript())}")
        return render(request, "games/review_import.html", {"form": form}, status=400)
    if "moves" not in request.GET:
        return render(request, "games/review_import.html", {"form": ImportForm()})
    data = request.GET.copy()
    data["transcript"] = data.get("moves", "")
    for name, form_field in ImportForm.base_fields.items():
        if name not in data and form_field.initial is not None:
            data[name] = form_field.initial
    form = ImportForm(data)
    if not form.is_valid():
        return render(request, "games/review_import.html", {"form": form}, status=400)
    board = form.cleaned_data["replayed"]
    replay = replay_moves(board.variant, list(board.history))
    query = import_query(board.variant, board.transcript())
    base = f"{reverse('review_import')}?{query}"
    ply = requested_ply(request, replay.last)
    context = review_context(replay, ply, lambda n: f"{base}&ply={n}", names={})
    context.update(
        game=None,
        imported=True,
        variant_label=variant_label(board.variant),
        players=[{"colour": c, "colour_name": colour_name(c), "name": ""} for c in board.variant.colours],
        result=outcome_sentence(replay),
        ending=ending_sentence(replay),
        transcript=board.transcript(),
        share_url=request.build_absolute_uri(base),
    )
    return render_review(request, context)


# -- sharing and analysis ------------------------------------------------------------------

def back_to_review(request, game):
    url = reverse("review", args=[game.public_id])
    ply = whole_number(request.POST.get("ply"))
    return redirect(f"{url}?ply={ply}" if ply is not None else url)


@require_POST
def set_public(request, public_id):
    """A player makes a finished game public (anyone with the link may review it) or private."""
    game, viewer = find_game(request, public_id)
    if viewer.seat_in(game) is None:
        return HttpResponseForbidden(_("Only the players can share this game."))
    if not game.is_over:
        error = _("A game can be shared once it is over.")
        if request.htmx:
            return HttpResponse(error, status=400)
        messages.error(request, error)
        return back_to_review(request, game)
    public = request.POST.get("public", "") in {"1", "true", "on", "yes"}
    Game.objects.filter(pk=game.pk).update(is_public=public)
    game.is_public = public
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
    game, viewer = find_game(request, public_id)
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

class GamesFilter(forms.Form):
    board = forms.ChoiceField(label=gettext_lazy("Board"), required=False,
                              choices=[("", gettext_lazy("Any board"))] + list(BOARD_NAMES.items()))
    players = forms.TypedChoiceField(label=gettext_lazy("Players"), required=False, coerce=int, empty_value=None,
                                     choices=[("", gettext_lazy("Any number")), (2, "2"), (3, "3"), (4, "4")])
    option = forms.ChoiceField(label=gettext_lazy("Rules"), required=False, choices=[
        ("", gettext_lazy("Any rules")),
        ("standard", gettext_lazy("Standard (no options)")),
        ("anti", gettext_lazy("Anti")),
        ("free_opening", gettext_lazy("Free opening")),
        ("blocked", gettext_lazy("Blocked squares")),
        ("handicap", gettext_lazy("Corner handicap")),
    ])
    result = forms.ChoiceField(label=gettext_lazy("Result"), required=False, choices=[
        ("", gettext_lazy("Any result")),
        ("won", gettext_lazy("Won")),
        ("lost", gettext_lazy("Lost")),
        ("draw", gettext_lazy("Draw")),
        ("playing", gettext_lazy("Not finished")),
    ])
    opponent = forms.CharField(label=gettext_lazy("Opponent"), required=False, max_length=40)

    def filter(self, games, viewer):
        """`games` narrowed to the valid choices (invalid ones are ignored)."""
        data = self.cleaned_data if self.is_valid() else {}
        if data.get("board"):
            games = games.filter(variant__board=data["board"])
        if data.get("players"):
            games = games.filter(variant__players=data["players"])
        option = data.get("option")
        if option == "anti":
            games = games.filter(variant__anti=True)
        elif option == "free_opening":
            games = games.filter(variant__free_opening=True)
        elif option == "handicap":
            games = games.filter(variant__handicap__gt=0)
        elif option == "blocked":
            games = games.filter(variant__blocked__0__isnull=False)
        elif option == "standard":
            games = games.filter(variant__anti=False, variant__free_opening=False, variant__handicap=0,
                                 variant__blocked__0__isnull=True)
        mine = seats_of(viewer)
        my_seats = Seat.objects.filter(mine, game=OuterRef("pk"))
        result = data.get("result")
        finished = Q(status=Game.Status.FINISHED)
        if result == "won":
            games = games.filter(finished, Exists(my_seats.filter(colour=OuterRef("winner"))))
        elif result == "lost":
            games = games.filter(finished).exclude(winner="").exclude(
                Exists(my_seats.filter(colour=OuterRef("winner"))))
        elif result == "draw":
            games = games.filter(finished, winner="").exclude(ending=Game.Ending.ABANDONED)
        elif result == "playing":
            games = games.exclude(finished)
        opponent = (data.get("opponent") or "").strip()
        if opponent:
            named = Q(guest_name__icontains=opponent) | Q(user__username__icontains=opponent)
            if any(f.name == "display_name" for f in get_user_model()._meta.get_fields()):
                named |= Q(user__display_name__icontains=opponent)
            if opponent.lower() in str(_("Computer")).lower() or opponent.lower() in "computer":
                named |= Q(is_computer=True)
            others = Seat.objects.filter(game=OuterRef("pk")).exclude(mine).filter(named)
            games = games.filter(Exists(others))
        return games

    def query(self, **extra):
        """The active filters as a query string (for pagination links)."""
        data = self.cleaned_data if self.is_valid() else {}
        params = {name: data[name] for name in self.fields if data.get(name)}
        params.update(extra)
        return urlencode(params)


def seats_of(viewer):
    """Q for the seats of `viewer` (user and/or guest session)."""
    mine = Q(guest_token=viewer.guest_token) if viewer.guest_token else Q(pk__in=[])
    if viewer.user is not None:
        mine |= Q(user=viewer.user)
    return mine


def outcome_for(game, seat):
    """'won' / 'lost' / 'draw' / 'playing' from the point of view of `seat`."""
    if not game.is_over:
        return "playing"
    if game.is_abandoned:
        return "abandoned"
    if not game.winner:
        return "draw"
    return "won" if seat is not None and seat.colour == game.winner else "lost"


OUTCOME_LABELS = {
    "playing": gettext_lazy("playing"),
    "draw": gettext_lazy("draw"),
    "won": gettext_lazy("won"),
    "lost": gettext_lazy("lost"),
    "abandoned": gettext_lazy("abandoned"),
}


@require_GET
def my_games(request):
    """Every game the viewer played (account and this browser's guest session), newest first."""
    viewer = Viewer.from_request(request, create=False)
    form = GamesFilter(request.GET)
    games = form.filter(viewer.games(), viewer).prefetch_related("seats__user", "tables").order_by("-created_at", "-pk")
    page = Paginator(games, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    rows = []
    for game in page:
        seats = list(game.seats.all())
        seat = next((s for s in seats if s.belongs_to(viewer)), None)
        outcome = outcome_for(game, seat)
        order = game.variant_obj.colours
        rows.append({
            "game": game,
            "variant": variant_label(game.variant),
            "colour": seat.colour if seat else "",
            "colour_name": colour_name(seat.colour) if seat else "",
            "opponents": [str(s.display_name) for s in seats if s != seat],
            "opponent_people": [{"name": str(s.display_name), "username": s.user.get_username() if s.user_id else ""}
                                for s in seats if s != seat],
            "outcome": outcome,
            "outcome_label": OUTCOME_LABELS[outcome],
            "score": scores_text(game.score, order, winner=game.winner) if game.score else "",
            "review_url": reverse("review", args=[game.public_id]),
            "play_url": game_url(game) if not game.is_over else "",
            "kind": game.get_kind_display(),
        })
    return render(request, "games/my_games.html", {
        "page": page, "rows": rows, "filter": form, "query": form.query(),
        "filtered": any(form.data.get(name) for name in form.fields),
    })
