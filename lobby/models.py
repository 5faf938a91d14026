"""Online tables: an invite code, a host, listed in the lobby or not, and the game
played there (its variant, level and seats are the game's).

Who sits where is not stored here: the game's Seat rows (games.models.Seat) are
the one truth of who plays which colour. Seat i of a table is colour i of the
variant (Black, White, Red, Green), the turn order of docs/rules.md §8.
"""
import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.models import Game

# No look-alikes (0/O, 1/I/L): 31 symbols, 10 of them make log2(31**10) ≈ 49.5 bits.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 10


def new_code():
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text):
    """What a person types (spaces, dashes, lower case, a whole share link) to a code."""
    text = (text or "").strip()
    if "/" in text:  # a pasted share link: /tables/<code>/
        text = [part for part in text.split("/") if part][-1] if text.strip("/") else ""
    code = "".join(ch for ch in text.upper() if ch not in " -_\t")
    # Anything else cannot be a code (and a NUL byte would upset PostgreSQL).
    return code if len(code) <= CODE_LENGTH and set(code) <= set(CODE_ALPHABET) else ""


class Table(models.Model):
    code = models.CharField(max_length=CODE_LENGTH, unique=True, default=new_code, editable=False)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_tables")
    # Listed in the lobby (a Game's is_public is another thing: anyone with the link may review it).
    listed = models.BooleanField(_("shown in the lobby"), default=False)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="tables")
    # The players' chat (the chat app): a rated table may be opened with it off for
    # both players; spectators keep their own room.
    players_chat = models.BooleanField(_("players' chat"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["listed", "-created_at"])]

    def __str__(self):
        return f"table {self.code}"

    @property
    def group_name(self):
        """The channel-layer group of every page showing this table's seats."""
        return f"table-{self.pk}"

    def get_absolute_url(self):
        return reverse("table", args=[self.code])


class Rematch(models.Model):
    """The offer of a rematch after a table's game ended (lobby.rematch).

    One per finished game: it starts when every person still at the table accepted
    (computer seats accept by themselves), and ends for all when anyone declines or
    leaves. `accepted` holds the colours (in the finished game) that accepted.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        DECLINED = "declined", _("Declined")
        STARTED = "started", _("Started")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rematches")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rematch",
                                help_text="the finished game it follows")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    accepted = models.JSONField(default=list, blank=True)
    declined_by = models.CharField(max_length=40, blank=True, help_text="the name of who declined or left")
    new_game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"rematch of {self.game_id}: {self.status}"
