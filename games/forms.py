"""The variant form: every option of docs/rules.md §1-§9. Only possible combinations are
offered (the others are drawn disabled, given what is chosen now; the pages
re-draw the form as choices change), and a combination RULES forbids is still
refused on submit with a message saying what to change."""
from urllib.parse import urlencode

from django import forms
from django.utils.translation import gettext_lazy as _

from games import InvalidVariantError, Variant
from games.models import Level
from games.presentation import BOARD_NAMES, COLOUR_NAMES
from games.services import build_variant
from games.variant_errors import variant_error_message

TRUE_WORDS = {"1", "true", "on", "yes"}
OPTION_FIELDS = ("board", "players", "anti", "free_opening", "handicap", "handicap_colour")


class OfferMixin:
    """A choice widget that draws the values in `disabled_values` as disabled
    options (never the one chosen now, so a refused choice stays visible)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.disabled_values = set()

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex=subindex, attrs=attrs)
        if str(value) in self.disabled_values and not selected:
            option["attrs"]["disabled"] = True
        return option


class OfferSelect(OfferMixin, forms.Select):
    pass


class OfferCheckboxes(OfferMixin, forms.CheckboxSelectMultiple):
    pass


def is_possible(options):
    """Whether the rules allow these variant options (blocked squares aside: any
    count of them goes with any variant)."""
    try:
        Variant(**options)
    except InvalidVariantError:
        return False
    return True


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
    board = forms.ChoiceField(label=_("Board"), choices=list(BOARD_NAMES.items()), initial="8x8", widget=OfferSelect)
    players = forms.TypedChoiceField(label=_("Players"), coerce=int, initial=2, widget=OfferSelect,
                                     choices=[(2, _("2 players")), (3, _("3 players")), (4, _("4 players"))])
    anti = forms.BooleanField(label=_("Anti-Reversi (fewest stones wins)"), required=False)
    free_opening = forms.BooleanField(label=_("Free opening"), required=False)
    blocked = forms.TypedChoiceField(label=_("Blocked squares"), coerce=int, initial=0,
                                     choices=[(0, _("none")), (2, "2"), (4, "4"), (6, "6"), (8, "8")])
    handicap = forms.TypedChoiceField(label=_("Corner handicap"), coerce=int, initial=0, widget=OfferSelect,
                                      choices=[(0, _("none")), (1, "1"), (2, "2"), (3, "3"), (4, "4")])
    handicap_colour = forms.ChoiceField(label=_("Handicap stones go to"), initial="white",
                                        choices=[("black", COLOUR_NAMES["black"]), ("white", COLOUR_NAMES["white"])])

    variant_fields = ("board", "players", "anti", "free_opening", "blocked", "handicap", "handicap_colour")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.offer_possible_choices(self.current_options())

    def current_value(self, name):
        """What the field shows now (submitted or prefilled), as the form would clean it."""
        field = self.fields[name]
        value = self[name].value()
        if isinstance(field, forms.BooleanField):
            return value is True or str(value).strip().lower() in TRUE_WORDS
        if value is None or not field.valid_value(str(value)):
            return field.initial
        return field.coerce(value) if isinstance(field, forms.TypedChoiceField) else value

    def current_options(self):
        return {name: self.current_value(name) for name in OPTION_FIELDS}

    def offer_possible_choices(self, options):
        """Disable every choice that cannot go with the others chosen now."""
        for name in ("board", "players", "handicap"):
            field = self.fields[name]
            field.widget.disabled_values = {
                str(value) for value, _label in field.choices
                if not is_possible({**options, name: field.coerce(value) if hasattr(field, "coerce") else value})}
        if not options["free_opening"] and not is_possible({**options, "free_opening": True}):
            self.fields["free_opening"].widget.attrs["disabled"] = True

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
