"""Stored games: the variant, the seats, and every move ever played.

The rules live in the Django-free modules beside this one; a game's position is
always rebuilt from its moves (`Game.board()`), so the move list is the one truth.
Only `games.writer` changes these rows (`games.creation` inserts new games).
"""
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games import Board, Variant


def new_public_id():
    """The id in a game's URL: 72 random bits, so games cannot be enumerated."""
    return secrets.token_urlsafe(9)


class Level(models.TextChoices):
    EASY = "easy", _("Easy")
    NORMAL = "normal", _("Normal")
    HARD = "hard", _("Hard")


class HandicapSide(models.TextChoices):
    """Who receives a corner handicap against the computer (docs/rules.md §7): a side,
    whichever colour it is drawn to play."""
    ME = "me", _("me")
    COMPUTER = "computer", _("the computer")


class Game(models.Model):
    class Kind(models.TextChoices):
        COMPUTER = "computer", _("Against the computer")
        TABLE = "table", _("Online table")
        # A finished game from a record, stored when its importer asks for its analysis.
        IMPORTED = "imported", _("Imported game")

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    class Ending(models.TextChoices):
        NONE = "", _("Not over")
        NORMAL = "normal", _("Nobody could move")
        FORFEIT = "forfeit", _("A player left")
        # Left for a new game (New Game against the computer): nobody won, no draw.
        ABANDONED = "abandoned", _("Abandoned for a new game")
        # A two-player game whose player to move let their clock or their days run out.
        TIME = "time", _("Lost on time")
        # Two players: the loser resigned (three or four: a resign is a forfeit).
        RESIGNED = "resigned", _("A player resigned")
        AGREED = "agreed", _("Drawn by agreement")
        # Stopped before every player had moved: nobody won, nothing rated.
        ABORTED = "aborted", _("Aborted")
        # Two players: the one to move was gone (games.gone) and the other claimed the win.
        CLAIMED = "claimed", _("Won by claim: the opponent was gone")

    class TimeControl(models.TextChoices):
        MOVE = "move", _("60 seconds a move")
        CLOCK = "clock", _("Clock")
        DAYS = "days", _("Correspondence")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.COMPUTER)
    variant = models.JSONField(help_text="Variant.to_dict(), blocked squares included")
    level = models.CharField(max_length=6, choices=Level.choices, default=Level.NORMAL)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    # Number of moves recorded (passes included): the expected ply of the next move.
    ply = models.PositiveIntegerField(default=0)
    turn = models.CharField(max_length=5, blank=True, help_text="colour to move; empty when over")
    # Bumped by every change (moves, undo, level): pages drop pushes older than what they show.
    version = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True, help_text="when the player to move times out")
    # How long a player may think (games.deadlines): `time_total` is each seat's clock
    # (CLOCK) or the time for one move (DAYS), in seconds; `time_increment` is added to
    # the clock of a player who moved in time (Fischer).
    time_control = models.CharField(max_length=5, choices=TimeControl.choices, default=TimeControl.MOVE)
    time_total = models.PositiveIntegerField(default=0)
    time_increment = models.PositiveIntegerField(default=0)
    turn_started_at = models.DateTimeField(null=True, blank=True, help_text="when the player to move began")
    # Correspondence: the ply whose player to move was told by e-mail (games.mail), so once a turn.
    mailed_ply = models.PositiveIntegerField(null=True, blank=True)
    # The result, once over.
    ending = models.CharField(max_length=10, choices=Ending.choices, default=Ending.NONE, blank=True)
    winner = models.CharField(max_length=5, blank=True, help_text="colour; empty for a draw")
    counts = models.JSONField(default=dict, blank=True, help_text="{colour: stones} at the end")
    score = models.JSONField(default=dict, blank=True, help_text="official score {colour: points}")
    forfeited = models.JSONField(default=list, blank=True, help_text="colours that left, in order")
    flagged = models.JSONField(default=list, blank=True, help_text="colours that ran out of time (3-4 players: "
                                                                   "also in forfeited, like a leaver)")
    is_public = models.BooleanField(default=False, help_text="anyone with the link may review it")
    # Two players: the colour whose draw offer stands (games.endings), and each colour's
    # last offer, by ply (one every DRAW_OFFER_EVERY plies).
    draw_offer = models.CharField(max_length=5, blank=True, help_text="colour offering a draw now")
    draw_offers = models.JSONField(default=dict, blank=True, help_text="{colour: ply of its last draw offer}")
    # Casual two-player tables: the colour asking to take back its last move (games.endings);
    # any move lets the request lapse.
    takeback_request = models.CharField(max_length=5, blank=True, help_text="colour asking to take back")
    # A rated table's game: rated once, when it finishes (games.signals.game_finished).
    rated = models.BooleanField(default=False)
    # An imported game's importer (an account or a guest's token), who may see it like
    # a player; and what it was stored from, so importing the same record twice stores it once.
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="imported_games")
    owner_token = models.CharField(max_length=64, blank=True)
    import_key = models.CharField(max_length=64, blank=True, help_text="the importer and the record, hashed")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "deadline"]),
            models.Index(fields=["-created_at"]),
        ]
        constraints = [
            models.UniqueConstraint(fields=["import_key"], condition=~models.Q(import_key=""),
                                    name="one_stored_import_per_importer_and_record"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} {self.public_id} ({self.variant_obj.label})"

    @property
    def variant_obj(self):
        return Variant.from_dict(self.variant)

    @property
    def group_name(self):
        """The channel-layer group of every page that shows this game."""
        return f"game-{self.pk}"

    @property
    def is_over(self):
        return self.status == self.Status.FINISHED

    @property
    def is_abandoned(self):
        return self.ending == self.Ending.ABANDONED

    def board(self, upto=None):
        """The position after `upto` moves (default: all), rebuilt from the record."""
        board = Board(self.variant_obj)
        for square in self.moves.order_by("ply").values_list("square", flat=True)[:upto]:
            board.push(square)
        return board

    def seat_of(self, colour):
        return next((seat for seat in self.seats.all() if seat.colour == colour), None)


def seat_name(is_computer, account_name, guest_name):
    """The name a seat shows: the computer's, its account's (`account_name`: the display
    name, else the username; None without an account), else its guest's."""
    if is_computer:
        return _("Computer")
    if account_name is not None:
        return account_name
    return guest_name or _("Guest")


class Seat(models.Model):
    """Who plays a colour: a user, a guest (by session token), or the computer."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    colour = models.CharField(max_length=5)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="seats")
    guest_token = models.CharField(max_length=64, blank=True, db_index=True)
    guest_name = models.CharField(max_length=40, blank=True)
    is_computer = models.BooleanField(default=False)
    left_at = models.DateTimeField(null=True, blank=True, help_text="set when the player left: the computer plays on")
    # The seconds left on this seat's clock when its turn last began (CLOCK games only).
    remaining = models.FloatField(null=True, blank=True)
    # The last round trip measured on this player's game socket, seconds: the lag credited to a move.
    lag = models.FloatField(default=0)
    board_shown_at = models.DateTimeField(null=True, blank=True, help_text="when a page of this player first showed "
                                          "the running game: their first move's time starts then (docs/rules.md §11.3)")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "colour"], name="one_seat_per_colour"),
        ]
        ordering = ["game", "id"]

    def __str__(self):
        return f"{self.colour}: {self.display_name}"

    @property
    def display_name(self):
        return seat_name(self.is_computer, self.user.display_name if self.user_id else None, self.guest_name)

    @property
    def played_by_computer(self):
        """The computer moves for this seat: a computer seat, or a player who left."""
        return self.is_computer or self.left_at is not None

    def belongs_to(self, viewer):
        if self.is_computer:
            return False
        if self.user_id is not None:
            return viewer.user is not None and viewer.user.pk == self.user_id
        return bool(self.guest_token) and self.guest_token == viewer.guest_token


class Move(models.Model):
    class MadeBy(models.TextChoices):
        PLAYER = "player", _("the player")
        COMPUTER = "computer", _("the computer")
        TIMEOUT = "timeout", _("the computer, for a player out of time")
        LEAVER = "leaver", _("the computer, for a player who left")
        AUTO = "auto", _("automatic pass")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField(help_text="1 for the first move")
    colour = models.CharField(max_length=5)
    square = models.CharField(max_length=4, help_text="square name, or 'pass'")
    flips = models.JSONField(default=list, blank=True)
    made_by = models.CharField(max_length=8, choices=MadeBy.choices, default=MadeBy.PLAYER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # A move is applied exactly once, whoever submits it twice.
            models.UniqueConstraint(fields=["game", "ply"], name="one_move_per_ply"),
        ]
        ordering = ["game", "ply"]

    def __str__(self):
        return f"{self.ply}. {self.colour} {self.square}"

    @property
    def is_pass(self):
        return self.square == "pass"


class GameEvent(models.Model):
    """One thing that happened in a game, as data (games.events): a move, a turn, an
    end, an offer... Numbered by the game's version: event `version` is what made the
    game's version that number, so a page or a program that shows version v resumes
    with the events after it. Written under the game's lock with the change itself."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=16)
    data = models.JSONField(default=dict, blank=True, help_text="the event without its type and version")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="one_event_per_game_version"),
        ]
        ordering = ["game", "version"]

    def __str__(self):
        return f"{self.game_id} v{self.version} {self.type}"


class GameAnalysis(models.Model):
    """The computer's opinion of every move of a game (games.analysis writes it).

    `entries` holds one item per ply, in order: for a move the computer weighed,
    {"best": square, "best_value": stones, "played_value": stones, "loss": stones};
    for a forced move or a pass {"forced": true}. `history` is the move list that
    was analysed ("d3 c5 ... pass ..."), so an analysis of a game that changed
    since (Undo after the end) is recognised as stale.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for a worker")
        RUNNING = "running", _("Analysing")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    history = models.TextField(blank=True, help_text="the moves analysed, space-separated, passes included")
    total = models.PositiveIntegerField(default=0, help_text="plies to analyse")
    done = models.PositiveIntegerField(default=0, help_text="plies analysed so far")
    entries = models.JSONField(default=list, blank=True)
    time_limit = models.FloatField(default=3.0, help_text="longest search of a position, seconds (a guard)")
    requested_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"analysis of {self.game_id}: {self.status} {self.done}/{self.total}"
