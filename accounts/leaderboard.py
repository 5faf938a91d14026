"""The leaderboard of each rating category, and a player's rank on it.

Read straight from `Rating` (written by accounts.ratings.rate_game inside the
transaction that finishes a game), so a finished game moves the board at once and
there is no second copy to keep in step. The order is the shown number, openskill's
ordinal mu - 3 sigma, which an expression index on (category, ordinal) serves.

Only settled ratings are ranked: a provisional one (fewer than PROVISIONAL_GAMES
rated games in the category) moves too much from game to game to mean a place.
Players with the same shown number share a place (1, 2, 2, 4).
"""
from django.db.models import F

from accounts.models import Rating
from accounts.ratings import PROVISIONAL_GAMES, SCALE, START, Shown

SIZE = 100
ORDINAL = F("mu") - 3 * F("sigma")  # accounts.ratings.shown is SCALE * this + START, rounded


def ranked(category):
    """The settled ratings of one category, best first."""
    return (Rating.objects.filter(category=category, games__gte=PROVISIONAL_GAMES, user__is_active=True)
            .annotate(ordinal=ORDINAL))


def top_of(category):
    """The top SIZE rows of a category: {"rank", "user", "shown", "rating"}."""
    ratings = (ranked(category).select_related("user__profile")
               .order_by("-ordinal", "-games", "user__username")[:SIZE])
    rows, previous = [], None
    for position, rating in enumerate(ratings, start=1):
        shown = Shown(rating)
        if previous is None or shown.value != previous["shown"].value:
            rank = position
        previous = {"rank": rank, "user": rating.user, "shown": shown, "rating": rating}
        rows.append(previous)
    return rows


def rank_of(user, category):
    """(rank, of how many) of the user's settled rating in a category, or None while it
    is provisional or there is none: one more than the settled ratings shown higher."""
    rating = Rating.objects.filter(user=user, category=category, games__gte=PROVISIONAL_GAMES).first()
    if rating is None:
        return None
    shown = Shown(rating).value
    # Shown higher means a shown number of at least shown + 1, i.e. before rounding at
    # least shown + 0.5.
    higher = ranked(category).filter(ordinal__gte=(shown + 0.5 - START) / SCALE).count()
    return 1 + higher, ranked(category).count()
