"""The Friends page: who a person follows, who of them is online now and what they are
doing there (playing at a table, watching one, at a private table, or elsewhere on the
site), with a link to watch. Following needs no consent, so a table the follower could
not find by themselves (lobby.access.can_find) is only "private": no link, no code.
Presence is social.online's; nobody blocked either way is shown."""
from games.access import Viewer
from games.models import Game
from lobby.access import can_find, code_in
from lobby.models import Table
from social import online, relations

PLAYING, WATCHING, PRIVATE, IDLE, OFFLINE = "playing", "watching", "private", "idle", "offline"


def doing(person, paths, follower):
    """(what, link) for `person` with pages open at `paths`, as `follower` may learn it:
    playing beats watching beats idle, and a table `follower` may not find is PRIVATE."""
    codes = [code for code in map(code_in, paths) if code]
    tables = Table.objects.filter(code__in=codes).select_related("game").prefetch_related("game__seats")
    viewer = Viewer(user=follower)
    found = []
    for table in tables:
        playing = table.game.status != Game.Status.FINISHED and any(
            seat.user_id == person.pk for seat in table.game.seats.all())
        found.append((not playing, not can_find(table, viewer), table))
    if not found:
        return IDLE, ""
    watching, hidden, table = min(found, key=lambda item: item[:2])
    if hidden:
        return PRIVATE, ""
    return (WATCHING if watching else PLAYING), table.get_absolute_url()


def friends_of(user):
    """[{"user", "state", "link"}] of the people `user` follows, online first."""
    people = relations.followed_users(user)
    open_pages = online.pages([p.pk for p in people])
    rows = []
    for person in people:
        if person.pk in open_pages:
            state, link = doing(person, open_pages[person.pk], user)
        else:
            state, link = OFFLINE, ""
        rows.append({"user": person, "state": state, "link": link})
    rows.sort(key=lambda row: (row["state"] == OFFLINE, row["user"].display_name.lower()))
    return rows


def shown_online(viewer, person):
    """Whether `viewer` sees `person` online: None (nothing said either way) to a visitor
    without an account, False across a block. A block binds an account, not a browser:
    signed out, the blocked person would be a visitor like any other, so visitors learn
    nobody's presence."""
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return None
    if relations.is_blocked(viewer, person):
        return False
    return online.is_online(person.pk)
