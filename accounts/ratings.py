"""Ratings of online play: openskill's Weng-Lin Plackett-Luce model, which rates two,
three and four players alike, one rating per player in each Category.

A rated game is rated by `rate_game`, the receiver of games.signals.game_finished,
inside the transaction that finishes the game: the finishing move is applied exactly
once, so the game is rated exactly once (and RatingChange's unique (game, user) is
the second lock). Games against the computer, and tables where the computer held a
seat from the start, stay unrated; a player who left was put last in the ranking.
"""
from django.db import transaction
from openskill.models import PlackettLuce

from accounts.models import Category, Rating, RatingChange
from games import Variant

MODEL = PlackettLuce()
# The shown number: openskill's ordinal (mu - 3 sigma, 0 for a new player) scaled so
# that a new player shows 1500.
SCALE, START = 30, 1500
# Fewer rated games than this in a category and the rating is provisional.
PROVISIONAL_GAMES = 10


def category_of(variant):
    """The rating category of a variant (a Variant or its dict)."""
    if isinstance(variant, dict):
        variant = Variant.from_dict(variant)
    if variant.players > 2:
        return Category.MULTI
    if variant.anti:
        return Category.ANTI
    plain = not (variant.free_opening or variant.blocked or variant.handicap)
    return Category.REVERSI if variant.board == "8x8" and plain else Category.OTHER


def shown(mu, sigma):
    """The whole number people see."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(3.0, SCALE, START))


def first_game_example():
    """(winner, loser): the shown ratings of two new players after their first game.

    Both rise by about 24 from the first game alone, since the estimate grows surer
    (sigma shrinks, and the shown number is mu - 3 sigma); mu then moves the winner
    up and the loser down by the same amount. The ratings page quotes these numbers."""
    [[winner], [loser]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    return shown(winner.mu, winner.sigma), shown(loser.mu, loser.sigma)


def new_rating_values():
    fresh = MODEL.rating()
    return fresh.mu, fresh.sigma


class Shown:
    """A rating as pages show it: the number, and whether it is provisional."""

    def __init__(self, rating=None):
        mu, sigma = (rating.mu, rating.sigma) if rating is not None else new_rating_values()
        self.value = shown(mu, sigma)
        self.games = rating.games if rating is not None else 0
        self.provisional = self.games < PROVISIONAL_GAMES
        self.rating = rating

    def __str__(self):
        return f"{self.value}?" if self.provisional else str(self.value)


def shown_ratings(users, category):
    """{user id: Shown} for these user ids in one category (new players at the start)."""
    ids = [pk for pk in users if pk]
    found = {r.user_id: r for r in Rating.objects.filter(user_id__in=ids, category=category)}
    return {pk: Shown(found.get(pk)) for pk in ids}


def is_rateable(game, seats):
    """Rated table, every seat a person's account from the start (leavers included)."""
    return game.rated and all(seat.user_id and not seat.is_computer for seat in seats)


def rate_game(sender, game, ranking, **kwargs):
    """games.signals.game_finished: rate every player of a rated game by `ranking`."""
    seats = list(game.seats.all())
    if not is_rateable(game, seats) or RatingChange.objects.filter(game=game).exists():
        return
    category = category_of(game.variant)
    rank_of = {colour: place for place, group in enumerate(ranking, start=1) for colour in group}
    seats = [seat for seat in seats if seat.colour in rank_of]
    with transaction.atomic():
        ratings = []
        for seat in seats:
            mu, sigma = new_rating_values()
            rating, _created = Rating.objects.select_for_update().get_or_create(
                user_id=seat.user_id, category=category, defaults={"mu": mu, "sigma": sigma})
            ratings.append(rating)
        teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
        ranks = [rank_of[seat.colour] for seat in seats]
        updated = MODEL.rate(teams, ranks=ranks)
        best = min(ranks)
        shared_top = ranks.count(best) > 1
        for seat, rating, [new], rank in zip(seats, ratings, updated, ranks):
            before = shown(rating.mu, rating.sigma)
            rating.mu, rating.sigma, rating.games = new.mu, new.sigma, rating.games + 1
            if rank == best and shared_top:
                rating.draws += 1
            elif rank == best:
                rating.wins += 1
            else:
                rating.losses += 1
            rating.save()
            RatingChange.objects.create(user_id=seat.user_id, game=game, category=category, rank=rank,
                                        before=before, after=shown(rating.mu, rating.sigma))


def seat_ratings(game, seats):
    """{colour: {"shown": Shown, "change": RatingChange or None}} for the account seats of
    a table's game: the rating in the game's category and, once rated, what it did."""
    category = category_of(game.variant)
    users = {seat.colour: seat.user_id for seat in seats if seat.user_id and not seat.is_computer}
    shown_now = shown_ratings(users.values(), category)
    rated = {c.user_id: c for c in RatingChange.objects.filter(game=game)} if game.rated else {}
    return {colour: {"shown": shown_now[pk], "change": rated.get(pk)} for colour, pk in users.items()}
