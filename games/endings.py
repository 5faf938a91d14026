"""What the players of a table's game agree or decide besides moves: a player resigns;
one aborts it before everyone has moved (nobody wins, nothing is rated); the two
players agree a draw (an offer stands until it is answered or the offerer's opponent
moves); at a casual table one takes back their last move with their opponent's
consent (any move lets the request lapse); when the player to move has been gone
PLAYER_GONE_SECONDS (games.gone), an opponent claims the win or lets the computer
play for them.

Each is a command of the turn engine (games.turn.endings, games.turn.offers) applied
as a move is, by games.writer.apply: under the game row's lock, by a conditional
update on the ply read under it, so one that is raced by a move or repeated happens
once; the result is pushed after commit and announced (ratings) inside the finishing
transaction. Two players are scored by the rules core's Board.decided (docs/rules.md
§4.1); with three or four nothing is decided early, and a resign is a leave (§11).
"""
from django.db import transaction

from games import signals
from games.models import Game
from games.turn import commands
from games.writer import apply


def resign(game, viewer):
    """The viewer resigns: with two players they lose at once (Board.decided); with
    three or four they leave (the computer plays on, they rank last)."""
    return apply(game, commands.Resign(), viewer=viewer)


def offer_draw(game, viewer):
    """The viewer offers their opponent a draw (one offer every games.turn.offers.DRAW_OFFER_EVERY plies)."""
    return apply(game, commands.OfferDraw(), viewer=viewer)


def accept_draw(game, viewer):
    """The viewer accepts their opponent's standing offer: the game ends drawn (Board.decided(None))."""
    return apply(game, commands.AcceptDraw(), viewer=viewer)


def decline_draw(game, viewer):
    """The viewer declines their opponent's standing offer: play goes on."""
    return apply(game, commands.DeclineDraw(), viewer=viewer)


def abort(game, viewer):
    """The viewer stops the game before every player has made a move: it ends aborted,
    won by nobody and not rated (no game_finished: nothing to rate)."""
    return apply(game, commands.Abort(), viewer=viewer)


def request_takeback(game, viewer):
    """At a casual two-player table, the viewer asks their opponent to take back their
    last move (and the reply after it). Any move lets the request lapse."""
    return apply(game, commands.RequestTakeback(), viewer=viewer)


def accept_takeback(game, viewer):
    """The viewer grants their opponent's request: the requester's last move and every
    move after it are undone, exactly once (the ply read under the lock guards it)."""
    return apply(game, commands.AcceptTakeback(), viewer=viewer)


def decline_takeback(game, viewer):
    """The viewer refuses their opponent's request: play goes on."""
    return apply(game, commands.DeclineTakeback(), viewer=viewer)


def claim_win(game, viewer):
    """Two players: the opponent to move is gone; the viewer wins (Board.decided)."""
    return apply(game, commands.ClaimWin(), viewer=viewer)


def computer_for_gone(game, viewer):
    """The player to move is gone: from now on the computer plays their seat, and they
    lose, ranked last (the path of a player who leaves)."""
    game = apply(game, commands.ComputerForGone(), viewer=viewer)
    transaction.on_commit(lambda: signals.seats_changed.send(sender=Game, game_id=game.pk))
    return game
