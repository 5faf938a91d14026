"""Chat at a table: the messages of a game's two rooms (its players', its spectators'),
reports of messages, mutes (one person hiding another's messages for themselves),
silences (an account that may not chat) and each person's chat switch.

Writers: chat.posting writes Message rows, chat.moderation writes Report and Silence
rows and a message's deletion, chat.preferences writes Mute and ChatSetting rows.
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game

MESSAGE_MAX = 280  # characters a message may have


class Room(models.TextChoices):
    PLAYERS = "players", _("Players")
    SPECTATORS = "spectators", _("Spectators")


class Message(models.Model):
    """One message in one room of a game's chat: free text from an account, or one of
    the fixed phrases (chat.phrases), shown in each reader's language."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    room = models.CharField(max_length=10, choices=Room.choices)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="chat_messages")
    guest_token = models.CharField(max_length=64, blank=True, help_text="a guest author's session token")
    author_name = models.CharField(max_length=40, help_text="the name shown when it was written")
    text = models.CharField(max_length=MESSAGE_MAX, blank=True)
    phrase = models.CharField(max_length=16, blank=True, help_text="a fixed phrase's key (chat.phrases)")
    ply = models.PositiveIntegerField(default=0, help_text="moves played when it was written")
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True, help_text="deleted by staff: shown to nobody")

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "room", "id"])]

    def __str__(self):
        return f"{self.author_name}: {self.text or self.phrase}"


class Report(models.Model):
    """A person's report of a message, decided by staff in the admin (chat.moderation)."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Insults or harassment")
        SPAM = "spam", _("Spam or advertising")
        COACHING = "coaching", _("Help with the game (cheating)")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        UPHELD = "upheld", _("Upheld")
        DISMISSED = "dismissed", _("Dismissed")

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports")
    reason = models.CharField(max_length=10, choices=Reason.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="one_report_per_message_and_person")]
        indexes = [models.Index(fields=["status", "decided_at"])]

    def __str__(self):
        return f"report of {self.message_id} by {self.reporter}: {self.reason}"


class Mute(models.Model):
    """`muter` no longer sees `muted`'s messages in any chat, until they undo it."""

    muter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["muter", "muted"], name="one_mute_per_pair")]

    def __str__(self):
        return f"{self.muter} mutes {self.muted}"


class Silence(models.Model):
    """An account that may not chat anywhere: until `until` (None: until lifted), given by
    staff or automatically (chat.moderation.AUTOMATIC_SILENCE)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_silences")
    until = models.DateTimeField(null=True, blank=True, help_text="empty: until lifted")
    automatic = models.BooleanField(default=False, help_text="after three upheld reports in a week")
    given_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    lifted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.user} silenced until {self.until or 'lifted'}"


class ChatSetting(models.Model):
    """A person's chat switch (off hides every chat); no row: on."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_setting")
    chat_on = models.BooleanField(default=True)

    def __str__(self):
        return f"{self.user}: chat {'on' if self.chat_on else 'off'}"
