"""Follows, blocks, direct challenges, notifications and each person's choices about them.

Each table has one writer: relations (Follow, Block), challenges (Challenge),
notifications (Notification) and preferences (Preferences)."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game

User = settings.AUTH_USER_MODEL


class Follow(models.Model):
    """`follower` follows `followed` (no confirmation: social.relations)."""

    follower = models.ForeignKey(User, on_delete=models.CASCADE, related_name="follows")
    followed = models.ForeignKey(User, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["follower", "followed"], name="follow_once")]

    def __str__(self):
        return f"{self.follower} follows {self.followed}"


class Block(models.Model):
    """`blocker` blocked `blocked`: no challenges, no chat, no presence between them."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once")]

    def __str__(self):
        return f"{self.blocker} blocks {self.blocked}"


class Challenge(models.Model):
    """One player asks another for a two-player game (social.challenges)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")
        LAPSED = "lapsed", _("Lapsed")

    class Colour(models.TextChoices):
        BLACK = "black", _("Black")
        WHITE = "white", _("White")
        RANDOM = "random", _("Random")

    TimeControl = Game.TimeControl

    challenger = models.ForeignKey(User, on_delete=models.CASCADE, related_name="challenges_sent")
    challenged = models.ForeignKey(User, on_delete=models.CASCADE, related_name="challenges_received")
    variant = models.JSONField(help_text="Variant.to_dict() of the game asked for")
    time_control = models.CharField(max_length=5, choices=Game.TimeControl.choices, default=Game.TimeControl.MOVE)
    time_total = models.PositiveIntegerField(default=0)
    time_increment = models.PositiveIntegerField(default=0)
    colour = models.CharField(max_length=6, choices=Colour.choices, default=Colour.RANDOM,
                              help_text="the challenger's colour")
    rated = models.BooleanField(default=False)
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    # The accepted challenge's table (lobby.Table), by code: its page is where both play.
    table_code = models.CharField(max_length=16, blank=True)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # When the challenger first saw the answer in their header, or reached its table
    # (social.live): pages opened after that no longer show it.
    answer_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "expires_at"]),
                   models.Index(fields=["challenger", "status"]),
                   models.Index(fields=["challenged", "status"])]

    def __str__(self):
        return f"{self.challenger} → {self.challenged}: {self.status}"


class Notification(models.Model):
    """Something that happened to `user`, shown live, on the bell's page, and for some
    kinds by mail (social.notifications). `key` makes each event one notification."""

    class Kind(models.TextChoices):
        CHALLENGE = "challenge", _("Challenge")
        CHALLENGE_ANSWER = "answer", _("Answer to a challenge")
        YOUR_TURN = "turn", _("Your turn")
        FRIEND_PLAYING = "friend", _("A friend started a game")
        REMATCH = "rematch", _("Rematch offered")
        MODERATOR = "moderator", _("Message from a moderator")

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    params = models.JSONField(default=dict, blank=True, help_text="what happened, drawn in the reader's language")
    text = models.TextField(max_length=1000, blank=True, help_text="a moderator's message")
    url = models.CharField(max_length=200, blank=True, help_text="where it happened")
    key = models.CharField(max_length=80, blank=True, help_text="the event, so it is told once")
    read = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "read"]), models.Index(fields=["user", "-created_at"])]
        constraints = [models.UniqueConstraint(fields=["user", "key"], condition=~models.Q(key=""),
                                               name="one_notification_per_event")]

    def __str__(self):
        return f"{self.user}: {self.kind}"


class Preferences(models.Model):
    """What a person wants: mail per kind (in their language), and the boards they take challenges on."""

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="social_preferences")
    mail_challenges = models.BooleanField(_("e-mail me challenges while I am away"), default=False)
    mail_your_turn = models.BooleanField(_("e-mail me when it is my turn in a correspondence game"), default=True)
    challenge_boards = models.JSONField(default=list, blank=True,
                                        help_text="boards taken in challenges; empty: every board")
    language = models.CharField(max_length=8, blank=True, choices=settings.LANGUAGES,
                                help_text="the language the person last read the site in: their mail's")

    def __str__(self):
        return f"preferences of {self.user}"
