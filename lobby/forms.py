"""The table form (every variant of docs/rules.md, seats (the host's own, or drawn at random),
level, public or private) and the code form.

The table form offers only the seats the chosen number of players has, and never
your own seat to the computer; the server checks both again."""
import random

from django import forms
from django.utils.translation import gettext_lazy as _

from games import COLOURS
from games.forms import OfferCheckboxes, OfferSelect, VariantForm
from games.models import Game, Level
from games.presentation import COLOUR_NAMES, colour_name
from lobby.actions import GUEST_NAME_MAX

SEAT_CHOICES = [(colour, COLOUR_NAMES[colour]) for colour in COLOURS]
RANDOM = "random"  # the host's colour drawn among the seats not given to the computer

# Clocks as minutes+seconds of increment (docs/rules.md §11.3), and the custom one's bounds.
CLOCK_PRESETS = ("1+1", "3+2", "5+3", "10+5", "15+10")
CLOCK_MINUTES = (1, 60)
CLOCK_INCREMENT = (0, 60)
DAYS = (1, 2, 3, 7)


def bounded(label, low, high, message):
    errors = {key: message for key in ("invalid", "min_value", "max_value")}
    return forms.IntegerField(label=label, required=False, min_value=low, max_value=high, error_messages=errors,
                              widget=forms.NumberInput(attrs={"min": low, "max": high, "inputmode": "numeric"}))


class TableForm(VariantForm):
    level = forms.ChoiceField(label=_("Computer level"), choices=Level.choices, initial=Level.NORMAL,
                              help_text=_("For computer seats, players who run out of time and players who leave."))
    listed = forms.BooleanField(label=_("Public: show the table in the lobby"), required=False, initial=False)
    rated = forms.BooleanField(label=_("Rated: the result changes the players' ratings"), required=False,
                               initial=False, help_text=_("Only players with an account sit at a rated table, "
                                                          "and no seat goes to the computer."))
    chat_off = forms.BooleanField(label=_("No chat for the players"), required=False, initial=False,
                                  help_text=_("Rated tables only: neither player can write or read the players' chat."))
    seat = forms.ChoiceField(label=_("Your seat"), choices=[*SEAT_CHOICES, (RANDOM, _("Random"))], initial="black",
                             widget=OfferSelect,
                             help_text=_("Black moves first, then White, Red and Green."))
    computer = forms.MultipleChoiceField(label=_("Seats for the computer"), choices=SEAT_CHOICES, required=False,
                                         widget=OfferCheckboxes)

    time_control = forms.ChoiceField(label=_("Time"), choices=Game.TimeControl.choices,
                                     initial=Game.TimeControl.MOVE, required=False, widget=forms.RadioSelect)
    clock = forms.ChoiceField(label=_("Clock"), initial="3+2", required=False,
                              choices=[*((p, p) for p in CLOCK_PRESETS), ("custom", _("other…"))],
                              help_text=_("Minutes for each player, plus seconds added after each move."))
    minutes = bounded(_("Minutes"), *CLOCK_MINUTES, _("Choose from 1 to 60 minutes."))
    increment = bounded(_("Seconds added a move"), *CLOCK_INCREMENT, _("Choose from 0 to 60 seconds added a move."))
    days = forms.TypedChoiceField(label=_("Days a move"), coerce=int, initial=3, required=False,
                                  choices=[(d, d) for d in DAYS])

    table_fields = ("seat", "computer", "level", "listed", "rated", "chat_off", "time_control", "clock", "minutes",
                    "increment", "days")

    def offer_possible_choices(self, options):
        super().offer_possible_choices(options)
        colours = COLOURS[:options["players"]]
        self.fields["seat"].widget.disabled_values = set(COLOURS) - set(colours)
        seat = self.current_value("seat")
        self.fields["computer"].widget.disabled_values = (set(COLOURS) - set(colours)) | ({seat} - {RANDOM})
        if self.current_value("rated"):  # a rated table is for people only
            self.fields["computer"].widget.disabled_values = set(COLOURS)

    def clean(self):
        data = super().clean()
        variant = data.get("variant")
        if variant is None:
            return data
        seat, computer = data.get("seat"), data.get("computer") or []
        if seat == RANDOM:
            free = [colour for colour in variant.colours if colour not in computer]
            seat = data["seat"] = random.SystemRandom().choice(free) if free else variant.colours[0]
        for colour in [seat, *computer]:
            if colour and colour not in variant.colours:
                self.add_error("seat" if colour == seat else "computer", _(
                    "A table for %(n)d players has no %(colour)s seat.")
                    % {"n": variant.players, "colour": colour_name(colour)})
        if seat and seat in computer:
            self.add_error("computer", _("Your own seat cannot go to the computer."))
        if data.get("rated") and computer:
            self.add_error("computer", _("A rated table is for people only: give no seat to the computer."))
        if data.get("chat_off") and not data.get("rated"):
            self.add_error("chat_off", _("Only a rated table can be opened with chat off."))
        data["time"] = self.clean_time(data)
        return data

    def clean_time(self, data):
        """(Game.TimeControl, total seconds, increment seconds) as open_table takes it."""
        control = data.get("time_control") or Game.TimeControl.MOVE
        if control == Game.TimeControl.DAYS:
            return control, (data.get("days") or 3) * 86400, 0
        if control != Game.TimeControl.CLOCK:
            return Game.TimeControl.MOVE, 0, 0
        clock = data.get("clock") or "3+2"
        if clock != "custom":
            minutes, increment = (int(part) for part in clock.split("+"))
            return control, minutes * 60, increment
        minutes, increment = data.get("minutes"), data.get("increment")
        if minutes is None and "minutes" not in self.errors:
            self.add_error("minutes", _("Choose from 1 to 60 minutes."))
        if increment is None and "increment" not in self.errors:
            self.add_error("increment", _("Choose from 0 to 60 seconds added a move."))
        return control, (minutes or 0) * 60, increment or 0

    @classmethod
    def initial_from_query(cls, query):
        initial = super().initial_from_query(query)
        if "computer" in query:
            initial["computer"] = query.getlist("computer")
        return initial


class CodeForm(forms.Form):
    code = forms.CharField(label=_("Table code"), max_length=200,
                           widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                                         "spellcheck": "false", "placeholder": "ABCDE23456"}))


class GuestForm(forms.Form):
    name = forms.CharField(label=_("Your name"), max_length=GUEST_NAME_MAX,
                           error_messages={"required": _("Type the name the other players will see.")})
    seat = forms.ChoiceField(label=_("Seat"), required=False, choices=[("", _("first free seat")), *SEAT_CHOICES])

    def __init__(self, *args, free_colours=None, **kwargs):
        super().__init__(*args, **kwargs)
        if free_colours is not None:
            # Offer only the table's free seats; a seat taken meanwhile is still refused
            # by games.seating.take_seat, with a message that says so.
            self.fields["seat"].widget.choices = [
                (value, label) for value, label in self.fields["seat"].choices if not value or value in free_colours]
