"""A player's display name, and the counters of accounts.throttle.

The user model stays Django's own `auth.User`; the display name lives in a
one-to-one Profile and is read everywhere as `user.display_name` (added to User
in AccountsConfig.ready), falling back to the username.
"""
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.db.models import F
from django.utils.translation import gettext_lazy as _

DISPLAY_NAME_MAX = 40


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(_("display name"), max_length=DISPLAY_NAME_MAX, blank=True,
                                    help_text=_("The name other players see. Your username if empty."))

    def __str__(self):
        return self.display_name or self.user.get_username()


def display_name_of(user):
    """The name shown for `user`: their display name, else their username."""
    try:
        name = user.profile.display_name
    except ObjectDoesNotExist:
        name = ""
    return name or user.get_username()


class LoginThrottle(models.Model):
    """Events in the current window per hashed key: password-reset mails (per mail
    address, per client address) and wrong table codes; see accounts.throttle.
    (Failed sign-ins are counted by django-axes.)"""

    key = models.CharField(max_length=64, unique=True, help_text="sha256 of the kind and its parts")
    failures = models.PositiveIntegerField(default=0)
    window_start = models.DateTimeField()

    def __str__(self):
        return f"{self.key[:12]}…: {self.failures}"


class Category(models.TextChoices):
    """A rating per player in each of these (accounts.ratings.category_of)."""

    REVERSI = "reversi", _("8×8 Reversi")
    ANTI = "anti", _("Anti-Reversi")
    OTHER = "other", _("Other boards and options")
    MULTI = "multi", _("Three and four players")


class Rating(models.Model):
    """A player's openskill rating (Plackett-Luce) in one category, with their record
    of rated games there. Written only by accounts.ratings.rate_game."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    category = models.CharField(max_length=8, choices=Category.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "category"], name="one_rating_per_category")]
        # accounts.leaderboard: a category's ratings by the shown number, openskill's ordinal.
        indexes = [models.Index(F("category"), (F("mu") - 3 * F("sigma")).desc(), name="rating_leaderboard")]

    def __str__(self):
        return f"{self.user}: {self.category} {self.mu:.2f}±{self.sigma:.2f}"


class RatingChange(models.Model):
    """One rated game of one player: the rating before and after (the history chart)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    category = models.CharField(max_length=8, choices=Category.choices)
    rank = models.PositiveSmallIntegerField(help_text="1 for the best; tied players share a rank")
    before = models.IntegerField(help_text="the shown rating before the game")
    after = models.IntegerField(help_text="the shown rating after the game")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # A game is rated once, whatever replays its finish.
            models.UniqueConstraint(fields=["game", "user"], name="one_rating_change_per_game_and_player"),
        ]
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["user", "category", "created_at"])]

    def __str__(self):
        return f"{self.user} in {self.game_id}: {self.before} -> {self.after}"

    @property
    def delta(self):
        return self.after - self.before
