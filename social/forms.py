"""The challenge form (board, Anti-Reversi, time, colour, rated or casual) and the
settings form (mail per kind, boards taken in challenges). The server checks again
everything it offers."""
from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.models import Game
from games.presentation import BOARD_NAMES
from games.creation import build_variant
from lobby.forms import CLOCK_PRESETS, DAYS
from social.models import Challenge


def time_choices():
    """The time controls offered, in the language of the page being drawn (a callable:
    choices filled in once, when the module is imported, would keep that language)."""
    return [("move", gettext("60 seconds a move")),
            *((f"clock:{p}", gettext("Clock %(clock)s") % {"clock": p}) for p in CLOCK_PRESETS),
            *((f"days:{d}", ngettext("Correspondence, %(n)d day a move", "Correspondence, %(n)d days a move", d)
               % {"n": d}) for d in DAYS)]


class ChallengeForm(forms.Form):
    board = forms.ChoiceField(label=_("Board"), choices=list(BOARD_NAMES.items()), initial="8x8")
    anti = forms.BooleanField(label=_("Anti-Reversi (fewest stones wins)"), required=False)
    time = forms.ChoiceField(label=_("Time"), choices=time_choices, initial="move")
    colour = forms.ChoiceField(label=_("Your colour"), choices=Challenge.Colour.choices,
                               initial=Challenge.Colour.RANDOM)
    rated = forms.BooleanField(label=_("Rated: the result changes both ratings"), required=False)

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        data["variant"] = build_variant(board=data["board"], players=2, anti=data["anti"])
        kind, _sep, value = data["time"].partition(":")
        if kind == "clock":
            minutes, increment = (int(part) for part in value.split("+"))
            data["time_control"] = (Game.TimeControl.CLOCK, minutes * 60, increment)
        elif kind == "days":
            data["time_control"] = (Game.TimeControl.DAYS, int(value) * 86400, 0)
        else:
            data["time_control"] = (Game.TimeControl.MOVE, 0, 0)
        return data


class SettingsForm(forms.Form):
    mail_challenges = forms.BooleanField(label=_("E-mail me challenges while I am away"), required=False)
    mail_your_turn = forms.BooleanField(label=_("E-mail me when it is my turn in a correspondence game"),
                                        required=False)
    challenge_boards = forms.MultipleChoiceField(
        label=_("Boards I take challenges on"), choices=list(BOARD_NAMES.items()), required=False,
        widget=forms.CheckboxSelectMultiple, help_text=_("None ticked: every board."))
