"""The fixed phrases: all a guest can say (nobody can abuse chat without an account),
and quick buttons for everyone. Stored by key, shown in each reader's language."""
from django.utils.translation import gettext_lazy as _

PHRASES = {
    "hello": _("Hello"),
    "good_luck": _("Good luck"),
    "good_game": _("Good game"),
    "thanks": _("Thanks"),
    "well_played": _("Well played"),
    "oops": _("Oops"),
}
