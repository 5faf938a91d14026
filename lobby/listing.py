"""What the lobby lists: the open listed tables (waiting for players) and the listed
tables playing now, with their seats and players' ratings, one page of LOBBY_ROWS
rows per section at a time, filtered on the server (lobby.filters: the variant's
rating category, rated or casual). row_of() reads one table's row as a change pushes
it (lobby.broadcast)."""
from datetime import timedelta

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.functional import lazy

from accounts.ratings import category_of, ratings_by_user_and_category
from games.models import Game, Seat
from games.presentation import variant_label
from games.seating import seat_is_free
from lobby import presence
from lobby.models import Table

# Open tables nobody joined are dropped from the lobby after this long (they stay reachable by code).
LOBBY_WAITING_FOR = timedelta(hours=12)
LOBBY_ROWS = 50
OPEN, PLAYING = "open", "playing"
EVERYTHING = {"category": "", "rated": ""}


def _public():
    seats = Prefetch("game__seats", queryset=Seat.objects.select_related("user__profile"))
    return (Table.objects.filter(listed=True).select_related("game", "host__profile")
            .prefetch_related(seats).order_by("-created_at"))


def _waiting(tables):
    waiting = tables.filter(game__status=Game.Status.WAITING,
                            created_at__gte=timezone.now() - LOBBY_WAITING_FOR)
    return waiting.exclude(pk__in=presence.abandoned(waiting))


def _filtered(tables, shown):
    """The ids of `tables` (newest first) that `shown` lets through (the category is the
    variant's, read from each table's variant without drawing anything)."""
    if shown.get("rated"):
        tables = tables.filter(game__rated=shown["rated"] == "rated")
    rows = tables.values_list("pk", "game__variant")
    return [pk for pk, variant in rows if not shown.get("category") or category_of(variant) == shown["category"]]


def lobby_tables(shown=EVERYTHING, page=1):
    """One page of each section for a filter: {"open_tables", "playing_tables": rows,
    "more": whether either section has a next page, "page"}."""
    start = (page - 1) * LOBBY_ROWS
    public = Table.objects.filter(listed=True).order_by("-created_at")
    ids = {OPEN: _filtered(_waiting(public), shown)[start:start + LOBBY_ROWS + 1],
           PLAYING: _filtered(public.filter(game__status=Game.Status.PLAYING), shown)[start:start + LOBBY_ROWS + 1]}
    more = any(len(found) > LOBBY_ROWS for found in ids.values())
    wanted = [pk for found in ids.values() for pk in found[:LOBBY_ROWS]]
    rows = {row["table"].pk: row for row in lobby_rows(list(_public().filter(pk__in=wanted)))}
    return {"open_tables": [rows[pk] for pk in ids[OPEN][:LOBBY_ROWS] if pk in rows],
            "playing_tables": [rows[pk] for pk in ids[PLAYING][:LOBBY_ROWS] if pk in rows],
            "more": more, "page": page}


def row_of(table_id):
    """The lobby row of one table and its section (OPEN or PLAYING), or None when the
    lobby does not list it (unlisted, finished, closed or abandoned)."""
    # every lobby change reads one row: two plain queries (no ordering, no prefetch
    # machinery) cost a quarter less CPU than the list's query for one table
    # (benchmarks/README.md, "The lobby at a crowd's scale")
    table = next(iter(Table.objects.filter(pk=table_id, listed=True).select_related("game", "host__profile")
                      .order_by()), None)
    if table is None or table.game.status not in (Game.Status.PLAYING, Game.Status.WAITING):
        return None
    if table.game.status == Game.Status.WAITING and table.created_at < timezone.now() - LOBBY_WAITING_FOR:
        return None
    seats = list(Seat.objects.filter(game_id=table.game_id).select_related("user__profile").order_by("id"))
    row = lobby_rows([table], {table.game_id: seats})[0]
    return None if row["abandoned"] else row


def lobby_rows(tables, seats_of_game=None):
    """The rows of `tables`, their seats prefetched or given ({game id: seats})."""
    if seats_of_game is None:
        seats_of_game = {table.game_id: list(table.game.seats.all()) for table in tables}
    ratings = lobby_ratings(tables, seats_of_game)
    seen = presence.last_seen(table.pk for table in tables if table.game.status == Game.Status.WAITING)

    def row(table):
        seats = seats_of_game[table.game_id]
        category = category_of(table.game.variant)
        waiting = table.game.status == Game.Status.WAITING
        return {
            "section": OPEN if waiting else PLAYING,
            "rated": table.game.rated, "category": category,
            "people": [{"name": s.display_name, "username": s.user.get_username() if s.user_id else "",
                        "rating": ratings.get((s.user_id, category))}
                       for s in seats if not seat_is_free(s) and not s.is_computer],
            "table": table,
            "code": table.code,
            "variant": lazy(variant_label, str)(table.game.variant),  # in the language it is drawn in
            "host": table.host.display_name,
            "host_here": waiting and presence.host_here(seen.get(table.pk), table.created_at),
            "abandoned": waiting and presence.is_abandoned(seen.get(table.pk), table.created_at),
            "since": int(table.created_at.timestamp()),
            "taken": sum(1 for s in seats if not seat_is_free(s)),
            "computers": sum(1 for s in seats if s.is_computer),
            "total": len(seats),
            "players": [s.display_name for s in seats if not seat_is_free(s)],
            "level": lazy(table.game.get_level_display, str)(),
            "ply": table.game.ply,
        }

    return [row(table) for table in tables]


def lobby_ratings(tables, seats_of_game):
    """Every seated account's rating in its table's category, in one query."""
    return ratings_by_user_and_category(
        (seat.user_id, category_of(table.game.variant)) for table in tables for seat in seats_of_game[table.game_id])


def waiting_table_ids():
    """Every listed table waiting for players and still listed (for the minute's check of hosts)."""
    return list(_waiting(Table.objects.filter(listed=True)).values_list("pk", flat=True))
