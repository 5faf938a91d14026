"""What a player page shows besides the recent games: the rating in each category
with its history chart and record, and the head-to-head against the viewer."""
from django.db.models import Q

from accounts.leaderboard import rank_of
from accounts.models import Category, Rating, RatingChange
from accounts.rating_chart import rating_chart
from accounts.ratings import Shown
from games import Variant
from games.models import Game


def rating_cards(user):
    """One card per category: the rating (provisional marked), the place on the
    category's leaderboard once settled, games, wins, losses, draws and the history
    chart (none before the first rated game)."""
    ratings = {r.category: r for r in Rating.objects.filter(user=user)}
    history = {}
    for change in RatingChange.objects.filter(user=user).order_by("created_at", "id"):
        history.setdefault(change.category, [change.before]).append(change.after)
    cards = []
    for category, label in Category.choices:
        rating = ratings.get(category)
        values = history.get(category, [])
        cards.append({
            "category": category, "label": label, "shown": Shown(rating),
            "rank": rank_of(user, category) if rating else None,
            "games": rating.games if rating else 0, "wins": rating.wins if rating else 0,
            "losses": rating.losses if rating else 0, "draws": rating.draws if rating else 0,
            "chart": rating_chart(values, chart_id=f"rating-chart-{category}") if len(values) > 1 else "",
        })
    return cards


def places(game):
    """{colour: place} of a finished game, 1 for the best: by official score (fewest
    stones first in Anti-Reversi), tied colours sharing a place, leavers last with
    the one who left last above those who left before (docs/rules.md §11)."""
    anti = Variant.from_dict(game.variant).anti
    stayed = [c for c in game.score if c not in game.forfeited]
    key = (lambda c: game.score[c]) if anti else (lambda c: -game.score[c])
    result = {c: 1 + sum(1 for other in stayed if key(other) < key(c)) for c in stayed}
    for offset, colour in enumerate(reversed(game.forfeited)):
        result[colour] = len(stayed) + 1 + offset
    return result


def head_to_head(player, viewer_user):
    """{"games", "player_ahead", "viewer_ahead", "even"} over the finished games (not
    abandoned) where both sat, by who finished ahead of the other."""
    both = (Game.objects.filter(status=Game.Status.FINISHED, seats__user=player)
            .filter(seats__user=viewer_user).exclude(ending=Game.Ending.ABANDONED)
            .exclude(Q(score={})).prefetch_related("seats").distinct())
    counts = {"games": 0, "player_ahead": 0, "viewer_ahead": 0, "even": 0}
    for game in both:
        colours = {seat.user_id: seat.colour for seat in game.seats.all() if seat.user_id}
        place = places(game)
        mine, theirs = place.get(colours.get(viewer_user.pk)), place.get(colours.get(player.pk))
        if mine is None or theirs is None:
            continue
        counts["games"] += 1
        if theirs < mine:
            counts["player_ahead"] += 1
        elif mine < theirs:
            counts["viewer_ahead"] += 1
        else:
            counts["even"] += 1
    return counts
