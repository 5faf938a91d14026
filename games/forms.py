"""The variant form: every option of docs/rules.md §1-§9. Only possible combinations are
offered (the others are drawn disabled, given what is chosen now; the pages
re-draw the form as choices change), and a combination RULES forbids is still
refused on submit with a message saying what to change."""
from urllib.parse import urlencode

from django import forms
from django.utils.translation import gettext_lazy as _

from games import InvalidVariantError, Variant
from games.models import HandicapSide, Level
from games.presentation import BOARD_NAMES, COLOUR_NAMES
from games.creation import build_variant
from games.variant_errors import variant_error_message

TRUE_WORDS = {"1", "true", "on", "yes"}
RANDOM = "random"
VARIANT_ARGUMENTS = ("board", "players", "anti", "free_opening", "blocked", "handicap", "handicap_colour")
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


def variant_query(variant, level=None, handicap_side=None):
    """The query string that prefills the play and table forms with `variant`,
    e.g. 'board=octagon&players=3&anti=1': only what differs from the defaults,
    blocked squares as their count (a new game draws them again); `handicap_side`
    for the play form, which gives a handicap to a side rather than a colour."""
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
        if handicap_side:
            params["handicap_side"] = handicap_side
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
    # Means nothing without a handicap: optional, and drawn only with one (below).
    handicap_colour = forms.ChoiceField(label=_("Handicap stones go to"), initial="white", required=False,
                                        choices=[("black", COLOUR_NAMES["black"]), ("white", COLOUR_NAMES["white"])])

    variant_fields = ("board", "players", "anti", "free_opening", "blocked", "handicap", "handicap_colour")
    # Fields that mean something only with a handicap. A form whose page redraws it on
    # every change leaves them out while there is none (except for pages without scripts).
    handicap_fields = ("handicap_colour",)
    redraws_itself = False

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.offer_possible_choices(self.current_options())

    @property
    def hides_handicap_fields(self):
        """Whether no handicap is chosen now in a form that redraws itself: the template
        then shows the handicap's fields only to pages without scripts, which cannot."""
        return self.redraws_itself and self.current_value("handicap") == 0

    def clean_handicap_colour(self):
        return self.cleaned_data["handicap_colour"] or Variant().handicap_colour

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
        # A form without handicap_colour (the play form names a side instead) checks with
        # the default colour: which colour receives the handicap never makes a variant impossible.
        return {name: self.current_value(name) if name in self.fields else Variant().handicap_colour
                for name in OPTION_FIELDS}

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
            data["variant"] = build_variant(**self.variant_options(data))
        except InvalidVariantError as error:
            raise forms.ValidationError(variant_error_message(error), code="invalid_variant") from None
        return data

    def variant_options(self, data):
        """build_variant's arguments from the cleaned fields."""
        options = {name: data[name] for name in self.variant_fields if name in VARIANT_ARGUMENTS}
        options["handicap_colour"] = data.get("handicap_colour", Variant().handicap_colour)
        return options

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
    """Against the computer the handicap goes to a side, not a colour: the visitor's
    colour may be drawn only when the game starts (games.creation.create_computer_game)."""
    handicap_colour = None
    handicap_side = forms.ChoiceField(label=_("Handicap stones go to"), initial=HandicapSide.ME, required=False,
                                      choices=HandicapSide.choices)
    colour = forms.ChoiceField(label=_("Your colour"), initial=RANDOM, required=False, widget=OfferSelect,
                               choices=[(RANDOM, _("drawn at random"))] + [
                                   (colour, COLOUR_NAMES[colour]) for colour in ("black", "white", "red", "green")])
    level = forms.ChoiceField(label=_("Computer level"), choices=Level.choices, initial=Level.NORMAL)

    variant_fields = ("board", "players", "anti", "free_opening", "blocked", "handicap", "handicap_side")
    handicap_fields = ("handicap_side",)
    redraws_itself = True  # templates/games/play.html

    def offer_possible_choices(self, options):
        super().offer_possible_choices(options)
        try:
            colours = Variant(**options).colours
        except InvalidVariantError:
            colours = Variant(players=options["players"]).colours
        self.fields["colour"].widget.disabled_values = set(COLOUR_NAMES) - set(colours)

    def clean(self):
        data = super().clean()
        variant = data.get("variant")
        if variant is None:
            return data
        colour = data.get("colour") or RANDOM
        if colour != RANDOM and colour not in variant.colours:
            self.add_error("colour", _("Choose a colour this game has."))
            return data
        data["human_colour"] = None if colour == RANDOM else colour
        data["handicap_side"] = data.get("handicap_side") or HandicapSide.ME
        return data


class LevelForm(forms.Form):
    level = forms.ChoiceField(choices=Level.choices)
