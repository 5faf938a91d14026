"""What the templates draw: boards, players and results as plain values, translated.

The same board template draws the live game, the review and the rules pages'
start positions, from `board_view`.
"""
from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import Variant, deadlines
from games.record import GameRecord, abortable, last_own_move, undo_refusal

COLOUR_NAMES = {
    "black": gettext_lazy("Black"),
    "white": gettext_lazy("White"),
    "red": gettext_lazy("Red"),
    "green": gettext_lazy("Green"),
    "neutral": gettext_lazy("neutral"),
}
BOARD_NAMES = {
    "6x6": gettext_lazy("6×6"),
    "8x8": gettext_lazy("8×8"),
    "10x10": gettext_lazy("10×10"),
    "octagon": gettext_lazy("Octagon"),
}


def colour_name(colour):
    return str(COLOUR_NAMES.get(colour, colour))


def table_action_url(game, name):
    """The URL of a table action (`name`, e.g. "table_draw") for the table `game` is played at, or ""."""
    table = next(iter(game.tables.all()), None) if hasattr(game, "tables") else None
    return reverse(name, args=[table.code]) if table is not None else ""


def game_url(game):
    """Where a game is played: its table page for an online table, the play page otherwise."""
    table = next(iter(game.tables.all()), None) if hasattr(game, "tables") else None
    try:
        if table is not None:
            return reverse("table", args=[table.code])
        return reverse("play_game", args=[game.public_id])
    except NoReverseMatch:
        return ""


def variant_label(variant):
    """'8×8 · 2 players · Anti', translated (Variant.label is the English one)."""
    if isinstance(variant, dict):
        variant = Variant.from_dict(variant)
    parts = [str(BOARD_NAMES[variant.board]), _("%(n)d players") % {"n": variant.players}]
    if variant.anti:
        parts.append(_("Anti"))
    if variant.free_opening:
        parts.append(_("Free opening"))
    if variant.blocked:
        parts.append(_("%(n)d blocked squares") % {"n": len(variant.blocked)})
    if variant.handicap:
        parts.append(_("handicap: %(n)d corners to %(colour)s")
                     % {"n": variant.handicap, "colour": colour_name(variant.handicap_colour)})
    return " · ".join(parts)


class BoardView:
    """A position as templates/games/includes/board.html draws it.

    The squares themselves are written here rather than by a template loop: a live
    game redraws up to 100 of them for every move, in every language. Each square
    is a button (the live game) or a labelled image (reviews, rules pages) with
    classes (removed, legal, last, flipped), its stone and an aria-label such as
    "d3, empty, legal move"; a legal square also carries the label without "legal
    move", which is what it is to everybody but the player to move (static/js/board.js).
    """

    def __init__(self, board, *, last_move=None, flips=(), show_legal=True):
        geometry = board.geometry
        self.stones = board.stones()
        self.legal = set()
        if show_legal and not board.is_game_over():
            self.legal = {move for move in board.legal_moves if move != "pass"}
        self.last_move, self.flipped = last_move, set(flips)
        self.names = [[f"{chr(97 + col)}{row + 1}" for col in range(geometry.width)] for row in range(geometry.height)]
        self.removed = {name for row in self.names for name in row if not geometry.is_playable(name)}
        self.rows = [{"number": row + 1} for row in range(geometry.height)]
        self.columns = [chr(97 + col) for col in range(geometry.width)]
        self.width = geometry.width
        self.board = board.variant.board

    def _squares(self, interactive):
        # The words are escaped once; a label is square names and these words
        # joined by ", ", so it needs no escaping of its own.
        words = {key: escape(word) for key, word in (
            ("removed", _("not part of the board")), ("empty", _("empty")), ("legal", _("legal move")),
            ("last", _("last move")), ("flipped", _("just flipped")))}
        stone_words = {colour: escape(colour_name(colour)) for colour in set(self.stones.values())}
        out = []
        for row in self.names:
            for name in row:
                stone = self.stones.get(name, "")
                if name in self.removed:
                    classes, label = "cell removed", f"{name}, {words['removed']}"
                    legal = False
                else:
                    legal, last, flipped = name in self.legal, name == self.last_move, name in self.flipped
                    classes = "cell" + (" legal" if legal else "") + (" last" if last else "") + (
                        " flipped" if flipped else "")
                    what = f"{name}, {stone_words[stone] if stone else words['empty']}"
                    after = (f", {words['last']}" if last else "") + (f", {words['flipped']}" if flipped else "")
                    others = what + after  # the label without "legal move"
                    label = what + (f", {words['legal']}" if legal else "") + after
                common = f'class="{classes}" data-square="{name}" data-stone="{stone}" aria-label="{label}"'
                removed = ' data-removed="true"' if name in self.removed else ""
                if interactive:
                    others_attribute = f' data-label-for-others="{others}"' if legal else ""
                    out.append(f'<button type="submit" name="square" value="{name}" {common}{others_attribute} '
                               f'tabindex="-1"{" disabled" if removed else ""}{removed}></button>')
                else:
                    out.append(f'<span {common} role="img"{removed}></span>')
        return mark_safe("".join(out))

    @cached_property
    def buttons(self):
        """Every square a button that submits its name (the live game)."""
        return self._squares(interactive=True)

    @cached_property
    def squares(self):
        """Every square a labelled image (reviews, rules pages)."""
        return self._squares(interactive=False)


def board_view(board, *, last_move=None, flips=(), show_legal=True):
    return BoardView(board, last_move=last_move, flips=flips, show_legal=show_legal)


def counts_view(board):
    """[(colour, name, stones)] in turn order."""
    counts = board.counts()
    return [{"colour": c, "name": colour_name(c), "stones": counts[c]} for c in board.colours]


def legend(board):
    """What the board shows besides the players' stones (the counts name those): the
    neutral stone of three players (docs/rules.md §8) and blocked squares (§6)."""
    items = []
    if board.neutral:
        items.append({"kind": "neutral", "text": _("Neutral stone: belongs to no one and counts for no one")})
    if board.variant.blocked:
        items.append({"kind": "blocked", "text": _("Blocked square: no stone goes there")})
    return items


def move_sentence(move):
    """'Black played d3 and flipped 2 stones.' / 'White has no move and passes.'"""
    who = colour_name(move.colour)
    if move.is_pass:
        return _("%(who)s has no move and passes.") % {"who": who}
    flips = len(move.flips)
    if flips == 0:
        return _("%(who)s played %(square)s.") % {"who": who, "square": move.square}
    return _("%(who)s played %(square)s and flipped %(n)d.") % {"who": who, "square": move.square, "n": flips}


def scores_text(score, colours, *, winner="", names=None):
    """'White (Alice) 36, Black (Computer) 0': every score with its colour (and the
    player's name where known), the winner first, the others in turn order."""
    names = names or {}
    order = ([winner] if winner else []) + [c for c in colours if c != winner]
    parts = []
    for colour in order:
        who = colour_name(colour)
        if names.get(colour):
            who = _("%(colour)s (%(name)s)") % {"colour": who, "name": names[colour]}
        parts.append(_("%(who)s %(points)d") % {"who": who, "points": score.get(colour, 0)})
    return ", ".join(parts)


def score_sentence(winner, score, colours, names=None, counts=None):
    """'White wins 36–0: White 36, Black 0.' for two players, 'Black wins: Black 21,
    White 17, Red 17, Green 9.' for more; 'Draw, 32–32: ...' / 'Draw: ...'. With the
    stones `counts`, a score that is not the count says where the empty squares went."""
    scores = scores_text(score, colours, winner=winner, names=names)
    if len(colours) == 2:
        first = [winner] if winner else []
        points = "–".join(str(score.get(c, 0)) for c in first + [c for c in colours if c != winner])
        if winner:
            sentence = _("%(who)s wins %(points)s: %(scores)s.") % {
                "who": colour_name(winner), "points": points, "scores": scores}
        else:
            sentence = _("Draw, %(points)s: %(scores)s.") % {"points": points, "scores": scores}
        note = empty_squares_note(winner, score, counts or {})
        return f"{sentence} {note}" if note else sentence
    if winner:
        return _("%(who)s wins: %(scores)s.") % {"who": colour_name(winner), "scores": scores}
    return _("Draw: %(scores)s.") % {"scores": scores}


def empty_squares_note(winner, score, counts):
    """Why a two-player score is not the stone count: the empty squares left at the end
    went to the winner, or were shared in a draw (docs/rules.md §4), or a game decided
    early is the smallest win (§4.1). Anti-Reversi counts
    stones as they stand, so its score is the count and needs no note."""
    empties = sum(score.values()) - sum(counts.values())
    if not counts or empties <= 0:
        return ""
    if winner and score.get(winner, 0) - counts.get(winner, 0) != empties:
        # a game decided early against the stones (docs/rules.md §4.1)
        return _("Ended early against the stones: scored as the smallest win.")
    if winner:
        return ngettext("%(n)d empty square counts for the winner.",
                        "%(n)d empty squares count for the winner.", empties) % {"n": empties}
    return ngettext("%(n)d empty square is shared equally.",
                    "%(n)d empty squares are shared equally.", empties) % {"n": empties}


def seat_names(seats, you=None):
    """{colour: the name of who played it} for the seats of a stored game; the seat of
    the player reading it (`you`, a colour) is "You", as the page's header calls them."""
    return {seat.colour: _("You") if seat.colour == you else str(seat.display_name) for seat in seats}


def result_sentence(game, seats=None, you=None):
    """The result of a stored game with its official score (docs/rules.md §4, §8), the
    players named (`you`: the colour of the player reading it); or that it was
    abandoned for a new game."""
    if not game.is_over:
        return ""
    if game.is_abandoned:
        return _("Abandoned for a new game.")
    if game.ending == game.Ending.ABORTED:
        return _("Aborted before every player had moved.")
    seats = game.seats.all() if seats is None else seats
    colours = Variant.from_dict(game.variant).colours
    sentence = score_sentence(game.winner, game.score, colours, names=seat_names(seats, you), counts=game.counts)
    for colour in game.flagged:
        sentence += " " + _("%(who)s ran out of time.") % {"who": colour_name(colour)}
    leavers = [c for c in game.forfeited if c not in game.flagged]
    if leavers:
        sentence += " " + _("Forfeit: %(who)s left the table.") % {"who": ", ".join(colour_name(c) for c in leavers)}
    if game.ending == game.Ending.RESIGNED:
        loser = next(c for c in colours if c != game.winner)
        sentence += " " + _("%(who)s resigned.") % {"who": colour_name(loser)}
    if game.ending == game.Ending.CLAIMED:
        loser = next(c for c in colours if c != game.winner)
        sentence += " " + _("%(who)s was gone; the win was claimed.") % {"who": colour_name(loser)}
    if game.ending == game.Ending.AGREED:
        sentence += " " + _("Drawn by agreement.")
    return sentence


def result_readings(game, seats):
    """The result as each seated player reads it ("for": their colour), calling them
    "You", and as everyone else does ("for": ""): the live game is drawn once for every
    page, and site.css shows each page its own reading by its data-viewer-colours."""
    if not game.is_over:
        return []
    return [{"for": "", "text": result_sentence(game, seats)}] + [
        {"for": seat.colour, "text": result_sentence(game, seats, you=seat.colour)}
        for seat in seats if not seat.is_computer]


def live_sentence(move):
    """What the live game says about a move: as move_sentence, and a move the computer
    made for a player out of time says so (the review notes it beside the move)."""
    if move.made_by != move.MadeBy.TIMEOUT:
        return move_sentence(move)
    return _("%(who)s ran out of time: the computer played %(square)s for them and flipped %(n)d.") % {
        "who": colour_name(move.colour), "square": move.square, "n": len(move.flips)}


MOVE_MARKS = {
    "timeout": gettext_lazy("time-out"),
    "computer": gettext_lazy("computer"),
    "leaver": gettext_lazy("computer, for a player who left"),
}


def move_list(moves):
    """Every ply of a live game as its move list shows it: number, colour, square (or
    "pass") and who made it when that was not the player (time-out, the computer)."""
    pass_word = _("pass")
    return [{"number": move.ply, "colour": move.colour, "colour_name": colour_name(move.colour),
             "square": pass_word if move.is_pass else move.square,
             "mark": str(MOVE_MARKS.get(move.made_by, ""))} for move in moves]


def passes_while_waiting(moves, turn):
    """The passes since the player to move last placed a stone. A pass is followed at
    once by the other side's move; the player it concerns still needs to read it."""
    since = 0
    for index, move in enumerate(moves):
        if move.colour == turn and not move.is_pass:
            since = index + 1
    return [m for m in moves[since:] if m.is_pass]


def clocks_view(game, seats, now=None):
    """The clocks a clock or correspondence game shows: per seat the seconds it showed
    when the turn began, what it shows `now`, whether it runs and, running, the instant
    its turn began (seconds since the epoch: after an outage a little ahead), from which
    the page counts it down on the server's time (static/js/clocks.js). Correspondence
    shows only the player to move's. Every sum is the game's Clock's (games.turn.clock)."""
    if game.kind != game.Kind.TABLE or game.time_control == game.TimeControl.MOVE or game.status == game.Status.WAITING:
        return []
    clock = deadlines.clock_of(game)
    now = now or timezone.now()
    playing = game.status == game.Status.PLAYING
    clocks = []
    for seat in seats:
        running = playing and seat.colour == game.turn and game.deadline is not None
        if game.time_control != game.TimeControl.CLOCK and not running:
            continue
        remaining = clock.at_turn_start(seat.remaining, game.turn_started_at, game.deadline)
        shown = clock.shown(seat.remaining, game.turn_started_at, game.deadline, now, running)
        started = f"{game.turn_started_at.timestamp():.3f}" if running and game.turn_started_at else ""
        clocks.append({"colour": seat.colour, "name": colour_name(seat.colour), "remaining": f"{remaining:.3f}",
                       "running": running, "started": started,
                       "shown": clock_text(shown), "low": shown < LOW_TIME})
    return clocks


def first_move_view(game, seats, moves):
    """On a clock, the player to move who has not made their first move yet: their
    colour's name and when the time for it is up (seconds since the epoch, Clock.first_move_due;
    the page counts it down, static/js/clocks.js), after which the game is aborted (docs/rules.md
    §11.3); else None."""
    if (game.kind != game.Kind.TABLE or game.time_control != game.TimeControl.CLOCK
            or game.status != game.Status.PLAYING or game.turn_started_at is None):
        return None
    seat = next((s for s in seats if s.colour == game.turn), None)
    if seat is None or seat.played_by_computer or last_own_move(moves, seat.colour) is not None:
        return None
    clock = deadlines.clock_of(game)
    return {"name": colour_name(seat.colour),
            "due": f"{clock.first_move_due(seat.remaining, game.turn_started_at).timestamp():.3f}",
            "shown": clock_text(clock.allowance(seat.remaining, first_move=True))}


def time_control_label(game):
    """'Clock 3+2', 'Days a move: 2' or 'Seconds a move: 60': a table's time control."""
    if game.time_control == game.TimeControl.CLOCK:
        return _("Clock %(minutes)d+%(increment)d") % {"minutes": game.time_total // 60,
                                                       "increment": game.time_increment}
    if game.time_control == game.TimeControl.DAYS:
        return _("Days a move: %(n)d") % {"n": game.time_total // 86400}
    return _("Seconds a move: %(n)s") % {"n": f"{settings.MOVE_TIME_LIMIT:g}"}


def computer_label(game):
    """'Computer: Normal' where the computer plays seats of the table, 'Computer at the time
    limit: Normal' where it moves for a player out of time (60 seconds a move), else ''
    (on a clock or in correspondence no computer takes over a turn: docs/rules.md §11.3)."""
    level = game.get_level_display()
    if any(seat.is_computer for seat in game.seats.all()):
        return _("Computer: %(level)s") % {"level": level}
    if game.time_control == game.TimeControl.MOVE:
        return _("Computer at the time limit: %(level)s") % {"level": level}
    return ""


# Under this many seconds a clock turns red, and the player to move is warned (the
# page is given it: static/js/clocks.js).
LOW_TIME = 10


def clock_text(seconds):
    """'4:59', '1:02:03', '9.8': as static/js/clocks.js draws it."""
    seconds = max(0.0, seconds)
    if seconds < LOW_TIME:
        return f"{int(seconds * 10) / 10:.1f}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def game_state(game, record=None):
    """Everything the live game fragment shows, for every page that shows it."""
    record = record or GameRecord(game)
    moves, seats, board = record.moves, record.seats, record.board
    last = next((m for m in reversed(moves) if not m.is_pass), None)
    passes = [m for m in moves[moves.index(last) + 1:]] if last else [m for m in moves if m.is_pass]
    if game.status == game.Status.PLAYING:
        passes = passes_while_waiting(moves, game.turn)
    to_move = next((s for s in seats if s.colour == game.turn), None)
    thinking = game.status == game.Status.PLAYING and to_move is not None and to_move.played_by_computer
    human = next((s for s in seats if not s.is_computer), None)
    can_undo = human is not None and undo_refusal(game, human, moves) is None
    announced = sorted({m.ply: m for m in ([last] if last else []) + passes}.values(), key=lambda m: m.ply)
    announcement = " ".join(live_sentence(m) for m in announced)  # the result follows it (state.html)
    return {
        "game": game,
        "board": board_view(board, last_move=last.square if last else None,
                            flips=last.flips if last else (), show_legal=game.status == game.Status.PLAYING),
        "counts": counts_view(board),
        "legend": legend(board),
        "seats": seats,
        "turn_name": colour_name(game.turn) if game.turn else "",
        "thinking": thinking,
        "passes": [move_sentence(m) for m in passes],
        "timed_out": live_sentence(last) if last and last.made_by == last.MadeBy.TIMEOUT else "",
        "can_undo": can_undo,
        "result": result_sentence(game, seats),
        "result_readings": result_readings(game, seats),
        "announcement": announcement,
        "moves_count": len([m for m in moves if not m.is_pass]),
        "clocks": clocks_view(game, seats),
        "first_move": first_move_view(game, seats, moves),
        "low_time": LOW_TIME,
        "move_list": move_list(moves),
        **draw_offer_view(game),
        # Seated players only (site.css): aborting is refused to anyone else.
        "abort_url": table_action_url(game, "table_abort")
        if game.kind == game.Kind.TABLE and game.status == game.Status.PLAYING
        and abortable(game.variant_obj.colours, moves) else "",
    }


def draw_offer_view(game):
    """The standing draw offer and takeback request of a running game: who makes it, to
    whom, where it is answered."""
    if game.status != game.Status.PLAYING:
        return {}
    shown = {}
    for key, by, url_name in (("draw_offer", game.draw_offer, "table_draw"),
                              ("takeback", game.takeback_request, "table_takeback")):
        if by:
            to = next(c for c in game.variant_obj.colours if c != by)
            shown[key] = {"by_name": colour_name(by), "to": to, "url": table_action_url(game, url_name)}
    return shown
