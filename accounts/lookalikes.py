"""Names that look like someone else's: a guest's name, a display name or a new
username is refused when a person would read it as another account's username or
display name. Read as a person reads it: Unicode NFKC, case folded, the characters
that look alike on screen taken as one (l, 1, I and |; O and 0), spaces ignored.

One account's own username and display name stay its own. Guests' names are not
kept apart from each other: a guest's seat says "guest" beside the name."""
import unicodedata

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

LOOKS_LIKE_SOMEONE_ELSE = _("This name looks like another player's name. Choose another.")

# Read without case, l, 1 and | are one, as are o and 0; read with it, so are I and l
# ("StaffI" and "staff1"), while "SITE" and "Site" are one only without: two readings.
ALIKE_WITHOUT_CASE = str.maketrans({"1": "l", "|": "l", "0": "o"})
ALIKE_WITH_CASE = str.maketrans({"1": "l", "|": "l", "I": "l", "0": "O"})


def skeletons(name):
    """`name` as it reads, both ways: two names that share a skeleton look the same."""
    text = unicodedata.normalize("NFKC", name or "")
    readings = (text.casefold().translate(ALIKE_WITHOUT_CASE), text.translate(ALIKE_WITH_CASE).casefold())
    return {"".join(reading.split()) for reading in readings} - {""}


def looks_like_someone_else(name, user=None):
    """Whether `name` reads as the username or display name of an account other than `user`."""
    wanted = skeletons(name)
    if not wanted:
        return False
    others = get_user_model().objects.values_list(get_user_model().USERNAME_FIELD, "profile__display_name")
    if user is not None:
        others = others.exclude(pk=user.pk)
    return any(wanted & skeletons(username) or wanted & skeletons(display_name)
               for username, display_name in others.iterator())
