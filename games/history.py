"""A player's games as rows of a list, the same on My games and on a profile page:
the variant, their colour, the opponents and how the game went for them."""
from django.db.models import F
from django.urls import reverse
from django.utils.translation import gettext_lazy

from games.access import can_watch
from games.models import Game
from games.presentation import colour_name, game_url, scores_text, variant_label

OUTCOME_LABELS = {
    "waiting": gettext_lazy("waiting for players"),
    "playing": gettext_lazy("playing"),
    "left": gettext_lazy("left"),
    "abandoned": gettext_lazy("abandoned"),
    "aborted": gettext_lazy("aborted"),
    "forfeited": gettext_lazy("lost (left the table)"),
    "lost_on_time": gettext_lazy("lost on time"),
    "resigned": gettext_lazy("lost (resigned)"),
    "claimed": gettext_lazy("lost (was gone)"),
    "draw": gettext_lazy("draw"),
    "won": gettext_lazy("won"),
    "lost": gettext_lazy("lost"),
}


def outcome_for(game, seat):
    """How the game went for `seat` (one of OUTCOME_LABELS; `seat` None: a game
    the player is not in, which can only be lost or drawn)."""
    if game.status == Game.Status.WAITING:
        return "waiting"
    if not game.is_over:
        return "left" if seat is not None and seat.left_at else "playing"
    if game.is_abandoned:
        return "abandoned"
    if seat is not None and seat.colour in game.flagged:
        return "lost_on_time"
    if game.ending == Game.Ending.ABORTED:
        return "aborted"
    if seat is not None and seat.colour in game.forfeited:
        return "forfeited"
    if game.ending in (Game.Ending.RESIGNED, Game.Ending.CLAIMED) and seat is not None and seat.colour != game.winner:
        return "resigned" if game.ending == Game.Ending.RESIGNED else "claimed"
    if not game.winner:
        return "draw"
    return "won" if seat is not None and seat.colour == game.winner else "lost"


OPEN_SEAT = gettext_lazy("open seat")


def seat_name(seat):
    """A seat as a list names it: a free seat at a table waiting for players is an
    open seat, not a guest called "Guest"."""
    if not seat.is_computer and seat.user_id is None and not seat.guest_token:
        return str(OPEN_SEAT)
    return str(seat.display_name)
def your_turn_games(user):
    """The correspondence games waiting on `user`'s move, the one due soonest first."""
    if user is None or not user.is_authenticated:
        return Game.objects.none()
    return (Game.objects.filter(status=Game.Status.PLAYING, time_control=Game.TimeControl.DAYS,
                                deadline__isnull=False)
            # One filter(): the same seat is the user's, to move, and still theirs.
            .filter(seats__user=user, seats__colour=F("turn"), seats__left_at__isnull=True)
            .order_by("deadline"))


def game_row(game, seat, viewer):
    """One game of a list, seen from `seat`; `url` only if `viewer` may watch it. The game's seats and tables should be prefetched."""
    outcome = outcome_for(game, seat)
    return {
        "game": game,
        "variant": variant_label(game.variant),
        "kind": game.get_kind_display(),
        "colour": seat.colour if seat else "",
        "colour_name": colour_name(seat.colour) if seat else "",
        "opponents": [seat_name(s) for s in game.seats.all() if s != seat],
        "opponent_people": [{"name": seat_name(s), "username": s.user.get_username() if s.user_id else ""}
                            for s in game.seats.all() if s != seat],
        "outcome": outcome,
        "outcome_label": OUTCOME_LABELS[outcome],
        "score": scores_text(game.score, game.variant_obj.colours, winner=game.winner) if game.score else "",
        "review_url": reverse("review", args=[game.public_id]),
        "play_url": game_url(game) if not game.is_over else "",
        # Where a list that is not the player's own sends the viewer: the review of a
        # finished game, the live page of a running one; nothing they may not watch.
        "url": ((reverse("review", args=[game.public_id]) if game.is_over else game_url(game))
                if can_watch(game, viewer) else ""),
    }
