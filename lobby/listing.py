"""What the lobby lists: the open listed tables (waiting for players) and the listed
tables playing now, with their seats and players' ratings, one page of LOBBY_ROWS
rows per section at a time, filtered on the server (lobby.filters: the variant's
rating category, rated or casual), newest first (place_of). row_of() reads one table's
row as a change pushes it (lobby.broadcast); both read their rows in one plain
statement (lobby_rows)."""
import json
from collections import namedtuple
from datetime import datetime, timedelta, timezone as dt_timezone
from itertools import groupby

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from django.utils.functional import lazy

from accounts.models import Profile, Rating
from accounts.ratings import Shown, category_of
from games.models import Game, Level, Seat, seat_name
from games.presentation import variant_label
from games.seating import seat_is_free
from lobby import host_presence
from lobby.models import Table

# Open tables nobody joined are dropped from the lobby after this long (they stay reachable by code).
LOBBY_WAITING_FOR = timedelta(hours=12)
OPEN, PLAYING = "open", "playing"
EVERYTHING = {"category": "", "rated": ""}
EPOCH = datetime(1970, 1, 1, tzinfo=dt_timezone.utc)


def rows_per_page():
    return settings.LOBBY_ROWS


def place_of(created_at, table_id):
    """Where a table stands in its section: the lists sort by it, smallest first (newest
    first, exact to the microsecond, the newer id first at the same time), and so does
    a page that places a changed row (lobby.feed)."""
    if not timezone.is_aware(created_at):
        created_at = timezone.make_aware(created_at, dt_timezone.utc)  # SQLite gives the naive UTC time
    return -((created_at - EPOCH) // timedelta(microseconds=1)), -table_id


def _waiting(tables):
    waiting = tables.filter(game__status=Game.Status.WAITING,
                            created_at__gte=timezone.now() - LOBBY_WAITING_FOR)
    return waiting.exclude(pk__in=host_presence.abandoned(waiting))


def _filtered(tables, shown):
    """[(place, id)] of `tables` that `shown` lets through, in the lists' order (the
    category is the variant's, read from each table's variant without drawing anything)."""
    if shown.get("rated"):
        tables = tables.filter(game__rated=shown["rated"] == "rated")
    rows = tables.order_by("-created_at", "-pk").values_list("pk", "created_at", "game__variant")
    return [(place_of(created_at, pk), pk) for pk, created_at, variant in rows
            if not shown.get("category") or category_of(variant) == shown["category"]]


def lobby_places(shown=EVERYTHING):
    """Every table each section lists for a filter: {OPEN: [(place, id)], PLAYING: [...]},
    in order."""
    public = Table.objects.filter(listed=True)
    return {OPEN: _filtered(_waiting(public), shown),
            PLAYING: _filtered(public.filter(game__status=Game.Status.PLAYING), shown)}


def page_of(places, page):
    """The ids a page of a section shows, of that section's [(place, id)]."""
    start = (page - 1) * rows_per_page()
    return [table_id for _place, table_id in places[start:start + rows_per_page()]]


def more_after(places, page):
    """Whether any section has tables after this page."""
    return any(len(found) > page * rows_per_page() for found in places.values())


def lobby_tables(shown=EVERYTHING, page=1):
    """One page of each section for a filter: {"open_tables", "playing_tables": rows,
    "more": whether either section has a next page, "page"}."""
    places = lobby_places(shown)
    ids = {section: page_of(found, page) for section, found in places.items()}
    rows = lobby_rows([pk for found in ids.values() for pk in found])
    return {"open_tables": [rows[pk] for pk in ids[OPEN] if pk in rows],
            "playing_tables": [rows[pk] for pk in ids[PLAYING] if pk in rows],
            "more": more_after(places, page), "page": page}


def row_of(table_id):
    """The lobby row of one table and its section (OPEN or PLAYING), or None when the
    lobby does not list it (unlisted, finished, closed or abandoned)."""
    return lobby_rows([table_id]).get(table_id)


def lobby_rows(table_ids):
    """{table id: row} of those of `table_ids` the lobby lists (listed, waiting or
    playing, not abandoned), read in one statement."""
    lines = _row_lines(table_ids)
    seen = host_presence.last_seen({line.table_id for line in lines if line.status == Game.Status.WAITING})
    rows = {}
    for table_id, group in groupby(lines, key=lambda line: line.table_id):
        row = _row(list(group), seen.get(table_id))
        if row is not None:
            rows[table_id] = row
    return rows


# Every lobby change reads its table's row (lobby.broadcast), up to ten times a second
# on a busy site: one plain statement costs a tenth of the three ORM queries it
# replaces (benchmarks/README.md, "The lobby at a crowd's scale").
_COLUMNS = ("table_id", "code", "created_at", "listed", "status", "variant", "rated", "level", "ply",
            "host_username", "host_name", "seat_id", "user_id", "guest_token", "guest_name", "is_computer",
            "username", "account_name", "category", "mu", "sigma", "games")
_Line = namedtuple("_Line", _COLUMNS)


def _row_lines(table_ids):
    """One line per seat of each table (and per rating of its account), ordered by table
    and seat."""
    table_ids = list(table_ids)
    if not table_ids:
        return []
    user = get_user_model()
    names = {"table": Table._meta.db_table, "game": Game._meta.db_table, "seat": Seat._meta.db_table,
             "user": user._meta.db_table, "username": user._meta.get_field(user.USERNAME_FIELD).column,
             "profile": Profile._meta.db_table, "rating": Rating._meta.db_table,
             "ids": ", ".join(["%s"] * len(table_ids))}
    sql = """SELECT t.id, t.code, t.created_at, t.listed, g.status, g.variant, g.rated, g.level, g.ply,
                    hu.{username}, hp.display_name, s.id, s.user_id, s.guest_token, s.guest_name, s.is_computer,
                    su.{username}, sp.display_name, r.category, r.mu, r.sigma, r.games
             FROM {table} t
             JOIN {game} g ON g.id = t.game_id
             JOIN {user} hu ON hu.id = t.host_id
             LEFT JOIN {profile} hp ON hp.user_id = t.host_id
             LEFT JOIN {seat} s ON s.game_id = t.game_id
             LEFT JOIN {user} su ON su.id = s.user_id
             LEFT JOIN {profile} sp ON sp.user_id = s.user_id
             LEFT JOIN {rating} r ON r.user_id = s.user_id
             WHERE t.id IN ({ids})
             ORDER BY t.id, s.id""".format(**names)
    with connection.cursor() as cursor:
        cursor.execute(sql, table_ids)
        return [_Line(*values) for values in cursor.fetchall()]


def _row(lines, seen):
    """A table's row from its lines (`seen`: when its host was last here), or None when
    the lobby does not list it."""
    first = lines[0]
    waiting = first.status == Game.Status.WAITING
    created_at = first.created_at if timezone.is_aware(first.created_at) else timezone.make_aware(
        first.created_at, dt_timezone.utc)  # SQLite gives the naive UTC time
    if not first.listed or not waiting and first.status != Game.Status.PLAYING:
        return None
    if waiting and (created_at < timezone.now() - LOBBY_WAITING_FOR or host_presence.is_abandoned(seen, created_at)):
        return None
    variant = first.variant if isinstance(first.variant, dict) else json.loads(first.variant)
    category = category_of(variant)
    seats, ratings = {}, {}
    for line in lines:
        if line.seat_id is not None:
            seats[line.seat_id] = line
        if line.category == category:
            ratings[line.user_id] = Shown(Rating(mu=line.mu, sigma=line.sigma, games=line.games))
    seats = [seat for _id, seat in sorted(seats.items())]
    taken = [seat for seat in seats if not seat_is_free(seat)]

    def name(seat):
        account = (seat.account_name or seat.username) if seat.user_id is not None else None
        return seat_name(seat.is_computer, account, seat.guest_name)

    return {
        "id": first.table_id,
        "place": place_of(created_at, first.table_id),
        "section": OPEN if waiting else PLAYING,
        "rated": bool(first.rated), "category": category,
        "people": [{"name": name(seat), "username": seat.username or "",
                    "rating": ratings.get(seat.user_id, Shown()) if seat.user_id is not None else None}
                   for seat in taken if not seat.is_computer],
        "code": first.code,
        "created_at": created_at,
        "variant": lazy(variant_label, str)(variant),  # in the language it is drawn in
        "host": first.host_name or first.host_username,
        "host_here": waiting and host_presence.host_here(seen, created_at),
        "since": int(created_at.timestamp()),
        "taken": len(taken),
        "computers": sum(1 for seat in seats if seat.is_computer),
        "total": len(seats),
        "players": [name(seat) for seat in taken],
        "level": Level(first.level).label,
        "ply": first.ply,
    }


def waiting_table_ids():
    """Every listed table waiting for players and still listed (for the minute's check of hosts)."""
    return list(_waiting(Table.objects.filter(listed=True)).values_list("pk", flat=True))
