"""The variant form: every option of RULES §1-§9; a combination RULES forbids is
refused with a message saying what to change."""
from urllib.parse import urlencode

from django import forms
from django.utils.translation import gettext_lazy as _

from games import InvalidVariantError, Variant
from games.models import Level
from games.presentation import BOARD_NAMES, COLOUR_NAMES
from games.services import build_variant
from games.variant_errors import variant_error_message

TRUE_WORDS = {"1", "true", "on", "yes"}


def variant_query(variant, level=None):
    """The query string that prefills the play and table forms with `variant`,
    e.g. 'board=octagon&players=3&anti=1': only what differs from the defaults,
    blocked squares as their count (a new game draws them again)."""
    defaults = Variant()
    params = {}
    if variant.board != defaults.board:
        params["board"] = variant.board
    if variant.players != defaults.players:
        params["players"] = variant.players
    for flag in ("anti", "free_opening"):
        if getattr(variant, flag):
            params[flag] = 1
    if variant.blocked:
        params["blocked"] = len(variant.blocked)
    if variant.handicap:
        params["handicap"] = variant.handicap
        if variant.handicap_colour != defaults.handicap_colour:
            params["handicap_colour"] = variant.handicap_colour
    if level:
        params["level"] = level
    return urlencode(params)


class VariantForm(forms.Form):
    board = forms.ChoiceField(label=_("Board"), choices=list(BOARD_NAMES.items()), initial="8x8")
    players = forms.TypedChoiceField(label=_("Players"), coerce=int, initial=2,
                                     choices=[(2, _("2 players")), (3, _("3 players")), (4, _("4 players"))])
    anti = forms.BooleanField(label=_("Anti-Reversi (fewest stones wins)"), required=False)
    free_opening = forms.BooleanField(label=_("Free opening"), required=False)
    blocked = forms.TypedChoiceField(label=_("Blocked squares"), coerce=int, initial=0,
                                     choices=[(0, _("none")), (2, "2"), (4, "4"), (6, "6"), (8, "8")])
    handicap = forms.TypedChoiceField(label=_("Corner handicap"), coerce=int, initial=0,
                                      choices=[(0, _("none")), (1, "1"), (2, "2"), (3, "3"), (4, "4")])
    handicap_colour = forms.ChoiceField(label=_("Handicap stones go to"), initial="white",
                                        choices=[("black", COLOUR_NAMES["black"]), ("white", COLOUR_NAMES["white"])])

    variant_fields = ("board", "players", "anti", "free_opening", "blocked", "handicap", "handicap_colour")

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            data["variant"] = build_variant(**{name: data[name] for name in self.variant_fields})
        except InvalidVariantError as error:
            raise forms.ValidationError(variant_error_message(error), code="invalid_variant") from None
        return data

    @classmethod
    def initial_from_query(cls, query):
        """Prefill from links like /play/?board=octagon&players=3&anti=1."""
        initial = {}
        for name, field in cls.base_fields.items():
            if name not in query:
                continue
            value = query.get(name)
            if isinstance(field, forms.BooleanField):
                initial[name] = value.strip().lower() in TRUE_WORDS
            else:
                initial[name] = value
        return initial


class PlayForm(VariantForm):
    level = forms.ChoiceField(label=_("Computer level"), choices=Level.choices, initial=Level.NORMAL)


class LevelForm(forms.Form):
    level = forms.ChoiceField(choices=Level.choices)
