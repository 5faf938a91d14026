"""What the players of a table's game agree or decide besides moves: a player resigns;
one aborts it before everyone has moved (nobody wins, nothing is rated); the two
players agree a draw (an offer stands until it is answered or the offerer's opponent
moves: games.services.play_move lets it lapse); at a casual table one takes back
their last move with their opponent's consent (any move lets the request lapse); when
the player to move has been gone PLAYER_GONE_SECONDS (games.gone), an opponent
claims the win or lets the computer play for them.

Each is applied as a move is (games.services.play_move): under the game row's
lock, by a conditional update on the ply read under it, so one that is raced by a
move or repeated happens once; the result is pushed after commit and announced
(ratings) inside the finishing transaction (games.services.finish_early). Two
players are scored by the rules core's Board.decided (docs/rules.md §4.1); with three
or four nothing is decided early, and a resign is a leave (§11).
"""
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games import deadlines, services, signals
from games.gone import gone_for
from games.models import Game, Move, Seat
from games.record import GameRecord, abortable, last_own_move
from games.services import GameError, NotYourTurn


def running_seat(game, viewer):
    """The viewer's seat in the running `game` (read under its lock), or the refusal."""
    if game.status != Game.Status.PLAYING:
        raise GameError(_("This game is over.") if game.is_over else _("This game has not started yet."))
    seat = viewer.seat_in(game)
    if seat is None:
        raise NotYourTurn(_("You have no seat in this game."))
    if seat.left_at is not None:
        raise GameError(_("You have already left this game."))
    return seat


def opponent_gone(game, seat):
    """A two-player game whose other player left: it is the stayer's already (§11)."""
    if any(other.left_at is not None for other in game.seats.all() if other.pk != seat.pk):
        raise GameError(_("Your opponent left the table: this game is yours whatever happens."))


def resign(game, viewer):
    """The viewer resigns: with two players they lose at once (Board.decided); with
    three or four they leave (games.services.leave: the computer plays on, they rank last)."""
    if game.variant_obj.players > 2:
        return services.leave(game, viewer)
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game.pk)
        seat = running_seat(game, viewer)
        opponent_gone(game, seat)
        record = GameRecord(game)
        return services.finish_early(game, record, record.board.decided(seat.colour), Game.Ending.RESIGNED)


# A player offers a draw at most once in this many plies.
DRAW_OFFER_EVERY = 10


def two_player_seat(game, viewer, takeback=False):
    """running_seat, in a two-player game only (draw offers and takebacks)."""
    seat = running_seat(game, viewer)
    if game.variant_obj.players != 2:
        raise GameError(_("Takebacks are asked in two-player games only.") if takeback
                        else _("Draws are offered in two-player games only."))
    return seat


def offer_draw(game, viewer):
    """The viewer offers their opponent a draw (one offer every DRAW_OFFER_EVERY plies)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game.pk)
        seat = two_player_seat(game, viewer)
        opponent_gone(game, seat)
        if game.draw_offer == seat.colour:
            raise GameError(_("You have offered a draw already; wait for the answer."))
        if game.draw_offer:
            raise GameError(_("Your opponent offers you a draw: accept or decline it."))
        last = game.draw_offers.get(seat.colour)
        if last is not None and game.ply - last < DRAW_OFFER_EVERY:
            raise GameError(_("You may make at most one draw offer every %(n)d moves.") % {"n": DRAW_OFFER_EVERY})
        return _change(game, draw_offer=seat.colour, draw_offers={**game.draw_offers, seat.colour: game.ply})


def _offer_to(game, viewer):
    """Under the lock: the viewer's seat, to whom the standing offer is made, or the refusal."""
    seat = two_player_seat(game, viewer)
    if not game.draw_offer or game.draw_offer == seat.colour:
        raise GameError(_("There is no draw offer of your opponent to answer."))
    return seat


def accept_draw(game, viewer):
    """The viewer accepts their opponent's standing offer: the game ends drawn (Board.decided(None))."""
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game.pk)
        _offer_to(game, viewer)
        record = GameRecord(game)
        return services.finish_early(game, record, record.board.decided(None), Game.Ending.AGREED)


def decline_draw(game, viewer):
    """The viewer declines their opponent's standing offer: play goes on."""
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game.pk)
        _offer_to(game, viewer)
        return _change(game, draw_offer="")


def _change(game, **changes):
    """Under the lock: store `changes` of a running game, a new version pushed after commit."""
    Game.objects.filter(pk=game.pk, status=Game.Status.PLAYING).update(
        version=F("version") + 1, updated_at=timezone.now(), **changes)
    game.refresh_from_db()
    transaction.on_commit(lambda: services.game_changed(game.pk, schedule=False))
    return game


def abort(game, viewer):
    """The viewer stops the game before every player has made a move: it ends aborted,
    won by nobody and not rated (no game_finished: nothing to rate)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game.pk)
        running_seat(game, viewer)
        record = GameRecord(game)
        if not abortable(game.variant_obj.colours, record.moves):
            raise GameError(_("Too late to abort: every player has moved. You can resign instead."))
        return services.abort_game(game, record)


def request_takeback(game, viewer):
    """At a casual two-player table, the viewer asks their opponent to take back their
    last move (and the reply after it). Any move lets the request lapse (play_move)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game.pk)
        seat = two_player_seat(game, viewer, takeback=True)
        if game.rated:
            raise GameError(_("Moves cannot be taken back at a rated table."))
        opponent_gone(game, seat)
        if game.takeback_request == seat.colour:
            raise GameError(_("You have asked already; wait for the answer."))
        if game.takeback_request:
            raise GameError(_("Your opponent asks to take back a move: accept or decline it."))
        if last_own_move(GameRecord(game).moves, seat.colour) is None:
            raise GameError(_("There is no move of yours to take back."))
        return _change(game, takeback_request=seat.colour)


def _takeback_to(game, viewer):
    seat = two_player_seat(game, viewer, takeback=True)
    if not game.takeback_request or game.takeback_request == seat.colour:
        raise GameError(_("There is no takeback request of your opponent to answer."))
    return seat


def accept_takeback(game, viewer):
    """The viewer grants their opponent's request: the requester's last move and every
    move after it are undone, exactly once (the ply read under the lock guards it)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game.pk)
        _takeback_to(game, viewer)
        colour = game.takeback_request
        moves = GameRecord(game).moves
        keep = last_own_move(moves, colour).ply - 1
        # The turn it interrupts ends here, and the requester's begins: their clock runs
        # from now, as their deadline does (docs/rules.md §11.3; taken back to before
        # their first move, that move's own limit holds again).
        now = timezone.now()
        stopped = services.stop_clock(game, now)
        first_move = last_own_move([m for m in moves if m.ply <= keep], colour) is None
        updated = Game.objects.filter(pk=game.pk, ply=game.ply, status=Game.Status.PLAYING).update(
            ply=keep, turn=colour, turn_started_at=now,
            deadline=deadlines.deadline_for(game, game.seat_of(colour), now, first_move=first_move),
            takeback_request="", version=F("version") + 1, updated_at=now)
        if updated != 1:
            raise services.StaleMove(_("The game has moved on; here is the current position."))
        if stopped is not None:
            Seat.objects.filter(pk=stopped.pk).update(remaining=stopped.remaining)
        Move.objects.filter(game=game, ply__gt=keep).delete()
        transaction.on_commit(lambda: services.game_changed(game.pk))
    game.refresh_from_db()
    return game


def decline_takeback(game, viewer):
    """The viewer refuses their opponent's request: play goes on."""
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game.pk)
        _takeback_to(game, viewer)
        return _change(game, takeback_request="")


def _gone_to_move(game, viewer):
    """Under the lock: the seat of the player to move, gone long enough for the viewer
    (another player of the game) to act for the game, or the refusal."""
    seat = running_seat(game, viewer)
    to_move = game.seat_of(game.turn)
    if to_move is None or to_move.pk == seat.pk or to_move.played_by_computer:
        raise GameError(_("Only the absence of the player to move can be claimed."))
    gone = gone_for(game.public_id, to_move.colour)
    if gone <= 0:
        raise GameError(_("%(who)s is here.") % {"who": to_move.display_name})
    wait = settings.PLAYER_GONE_SECONDS - gone
    if wait > 0:
        raise GameError(_("%(who)s has not been gone long enough yet: %(n)d s to wait.")
                        % {"who": to_move.display_name, "n": int(wait) + 1})
    return to_move


def claim_win(game, viewer):
    """Two players: the opponent to move is gone; the viewer wins (Board.decided)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game.pk)
        if game.variant_obj.players != 2:
            raise GameError(_("The win is claimed in two-player games only: let the computer play for them."))
        gone = _gone_to_move(game, viewer)
        record = GameRecord(game)
        return services.finish_early(game, record, record.board.decided(gone.colour), Game.Ending.CLAIMED)


def computer_for_gone(game, viewer):
    """The player to move is gone: from now on the computer plays their seat, and they
    lose, ranked last (the path of a player who leaves: games.services.forfeit_seat)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().prefetch_related("seats").get(pk=game.pk)
        gone = _gone_to_move(game, viewer)
        services.forfeit_seat(game, gone)
        transaction.on_commit(lambda: signals.seats_changed.send(sender=Game, game_id=game.pk))
    game.refresh_from_db()
    return game
