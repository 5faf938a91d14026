"""The forms of the review: importing a record, and filtering My games."""
from urllib.parse import urlencode

from django import forms
from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import Board, IllegalMoveError, InvalidVariantError, Variant
from games.forms import VariantForm
from games.models import Game, Seat
from games.presentation import BOARD_NAMES
from games.review.records import MAX_RECORD_BYTES, Players, parse_record
from games.variant_errors import variant_error_message


# -- import ---------------------------------------------------------------------------

# Why a move is illegal, by the rules core's IllegalMoveError.reason ("must-pass" never
# reaches an import: Board.from_transcript puts the due pass in itself).
ILLEGAL_MOVE_REASONS = {
    "game-over": gettext_lazy("the game was already over"),
    "may-not-pass": gettext_lazy("a player may only pass when they have no legal move"),
    "not-a-square": gettext_lazy("there is no such square on this board"),
    "removed": gettext_lazy("that square is not part of the board"),
    "occupied": gettext_lazy("that square is already taken"),
    "not-centre": gettext_lazy("the first four moves go on the central squares"),
    "no-flips": gettext_lazy("it flips no stones"),
    "not-adjacent": gettext_lazy("it touches no stone"),
}


def illegal_move_message(error):
    """'Move 12 (d9) is not legal: that square is already taken.', translated."""
    number = error.number
    if number is None:
        return _("The record cannot be replayed.")
    if error.reason == "unreadable":
        return _("Move %(number)d cannot be read.") % {"number": number}
    reason = ILLEGAL_MOVE_REASONS.get(error.reason, gettext_lazy("it is not allowed here"))
    return _("Move %(number)d (%(move)s) is not legal: %(reason)s.") % {
        "number": number, "move": error.move, "reason": reason}


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
        players = Players()
        if text.lstrip().startswith("{"):
            variant, moves, players = parse_record(text)
        else:
            variant = self.variant_from_fields(data)
            moves = text
        try:
            board = Board.from_transcript(variant, moves)
        except IllegalMoveError as error:
            raise forms.ValidationError(illegal_move_message(error), code="illegal_move") from None
        data["variant"] = variant
        data["replayed"] = board
        data["players_known"] = players
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
        mine = viewer.seats()
        my_seats = Seat.objects.filter(mine, game=OuterRef("pk"))
        result = data.get("result")
        finished = Q(status=Game.Status.FINISHED)
        if result == "won":
            games = games.filter(finished, Exists(my_seats.filter(colour=OuterRef("winner"))))
        elif result == "lost":
            games = games.filter(finished).exclude(winner="").exclude(
                Exists(my_seats.filter(colour=OuterRef("winner"))))
        elif result == "draw":
            games = games.filter(finished, winner="").exclude(ending__in=[Game.Ending.ABANDONED, Game.Ending.ABORTED])
        elif result == "playing":
            games = games.exclude(finished)
        opponent = (data.get("opponent") or "").strip()
        if opponent:
            named = (Q(guest_name__icontains=opponent) | Q(user__username__icontains=opponent)
                     | Q(user__profile__display_name__icontains=opponent))
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
