"""What the lobby lists: the open listed tables (waiting for players) and the listed
tables playing now, with their seats and players' ratings. The filter (lobby.filters)
hides rows on the page; the list itself is the same for everyone."""
from datetime import timedelta

from django.db.models import Prefetch
from django.utils import timezone

from accounts.ratings import category_of, ratings_by_user_and_category
from games.models import Game, Seat
from games.presentation import variant_label
from games.seating import seat_is_free
from lobby import presence
from lobby.models import Table

# Open tables nobody joined are dropped from the lobby after this long (they stay reachable by code).
LOBBY_WAITING_FOR = timedelta(hours=12)
LOBBY_ROWS = 50


def lobby_tables():
    """Open public tables (waiting for players) and public tables playing now."""
    seats = Prefetch("game__seats", queryset=Seat.objects.select_related("user__profile"))
    public = (Table.objects.filter(listed=True).select_related("game", "host__profile")
              .prefetch_related(seats).order_by("-created_at"))
    waiting = public.filter(game__status=Game.Status.WAITING, created_at__gte=timezone.now() - LOBBY_WAITING_FOR)
    waiting = waiting.exclude(pk__in=presence.abandoned(waiting))[:LOBBY_ROWS]
    playing = public.filter(game__status=Game.Status.PLAYING)[:LOBBY_ROWS]

    tables = list(waiting) + list(playing)
    ratings = lobby_ratings(tables)

    def row(table):
        seats = list(table.game.seats.all())
        category = category_of(table.game.variant)
        return {
            "rated": table.game.rated, "category": category,
            "people": [{"name": s.display_name, "username": s.user.get_username() if s.user_id else "",
                        "rating": ratings.get((s.user_id, category))}
                       for s in seats if not seat_is_free(s) and not s.is_computer],
            "table": table,
            "code": table.code,
            "variant": variant_label(table.game.variant),
            "host": table.host.display_name,
            "taken": sum(1 for s in seats if not seat_is_free(s)),
            "computers": sum(1 for s in seats if s.is_computer),
            "total": len(seats),
            "players": [s.display_name for s in seats if not seat_is_free(s)],
            "level": table.game.get_level_display(),
            "ply": table.game.ply,
        }

    return {"open_tables": [row(t) for t in tables if t.game.status == Game.Status.WAITING],
            "playing_tables": [row(t) for t in tables if t.game.status == Game.Status.PLAYING]}


def lobby_ratings(tables):
    """Every seated account's rating in its table's category, in one query."""
    return ratings_by_user_and_category(
        (seat.user_id, category_of(table.game.variant)) for table in tables for seat in table.game.seats.all())
