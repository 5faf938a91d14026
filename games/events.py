"""A game's events as data: numbered by the game's version, kept, sent, read back.

An event is a plain dict with a "type" (games.turn writes them: "move", "turn", "end",
"offer"...) and JSON values only (no datetimes: they cross Redis as msgpack and are
read back from a JSONField). `record` numbers and stores them with the change that
made them, `publish` sends them to the game's pages after commit (each page's daphne
draws them: games.drawing), and `since` gives a page or a program that shows version
v the events after it, so it resumes instead of reading the whole state again.

A "state" event carries nothing but its version: the game changed in a way told by
no other event, and whoever follows it reads the whole state. `since` never gives
one: its caller sends the whole state instead.
"""
import logging

from django.db import OperationalError, transaction

from games.models import GameEvent
from infra import sending

log = logging.getLogger(__name__)

STATE = "state"

# The most events `since` gives at once; a page or program further behind reads the
# whole state, which is smaller than that many events.
SINCE_LIMIT = 500


def record(game, events):
    """Number `events` game.version + 1, + 2, ... (one version each), store them and
    return them numbered: new dicts, "v" first, the given ones unchanged.

    Contract with the writer (games.writer.apply): called inside its transaction,
    holding the game's lock (the Game row selected for update); on entry game.version
    is the game's OLD version, the one read under the lock; on return it is the last
    event's version, which the caller's conditional update then writes (UPDATE ...
    SET version = game.version WHERE version = the old one). Rolled back with the
    change, the events are gone with it. No events: nothing stored, version unchanged.
    """
    numbered = [{"v": game.version + index, **event} for index, event in enumerate(events, 1)]
    GameEvent.objects.bulk_create([
        GameEvent(game=game, version=event["v"], type=event["type"],
                  data={key: value for key, value in event.items() if key not in ("v", "type")})
        for event in numbered])
    if numbered:
        game.version = numbered[-1]["v"]
    return numbered


def record_state(game):
    """After commit, for a change that told no events: a bare "state" event under the
    game's version as the change wrote it (kept once: a second call for the same
    version stores nothing). Returns the events to publish. The change is saved
    already, so a database too busy to store it leaves a gap, which `since` answers
    with the whole state, rather than failing the change's request."""
    try:
        with transaction.atomic():
            GameEvent.objects.bulk_create([GameEvent(game=game, version=game.version, type=STATE)],
                                          ignore_conflicts=True)
    except OperationalError as error:  # busy or locked (infra.write_waits.WritesBusy)
        log.warning("game %s: state event %s not stored (%s)", game.pk, game.version, error)
    return [{"v": game.version, "type": STATE}]


def message(game, events):
    """The push of `events` to the game's group: data only, each page's daphne draws it."""
    return {"type": "game.events", "group": game.group_name, "game": game.public_id,
            "version": events[-1]["v"], "events": events, "public": game.is_public}


def publish(game, events):
    """After commit: send the numbered `events` to every page of the game (nothing for
    none). Raises what the channel layer raises while Redis is away (infra.outages):
    the change is saved, the pages catch up when they reconnect."""
    if events:
        sending.group_send(game.group_name, message(game, events))


def as_event(row):
    return {"v": row.version, "type": row.type, **row.data}


def since(game, version, limit=SINCE_LIMIT):
    """The stored events after `version` up to game.version, in order ([] when the
    page is up to date), or None when they cannot be given and the caller sends the
    whole state: more than `limit`, a version the game never had, one not stored
    (changed before events were kept, or pruned), or a "state" event among them."""
    if version == game.version:
        return []
    if not 0 <= version < game.version or game.version - version > limit:
        return None
    rows = list(GameEvent.objects.filter(game=game, version__gt=version, version__lte=game.version)
                .order_by("version"))
    if len(rows) != game.version - version or any(row.type == STATE for row in rows):
        return None  # unique (game, version): as many rows as versions means none is missing
    return [as_event(row) for row in rows]
