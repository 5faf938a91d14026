"""The Friends page: who a person follows, who of them is online now and what they are
doing there (playing at a table, watching one, or elsewhere on the site), with a link
to watch. Presence is social.presence's; nobody blocked either way is shown."""
from django.urls import Resolver404, resolve

from games.models import Game
from lobby.models import Table
from social import presence, relations

PLAYING, WATCHING, IDLE, OFFLINE = "playing", "watching", "idle", "offline"


def doing(user, paths):
    """(what, link) for a person with pages open at `paths`: playing beats watching beats idle."""
    codes = []
    for path in paths:
        try:
            match = resolve(path)
        except Resolver404:
            continue
        if match.url_name == "table":
            codes.append(match.kwargs["code"])
    tables = list(Table.objects.filter(code__in=codes).select_related("game"))
    for table in tables:
        if table.game.status != Game.Status.FINISHED and table.game.seats.filter(user=user).exists():
            return PLAYING, table.get_absolute_url()
    for table in tables:
        if table.listed or table.game.is_public:
            return WATCHING, table.get_absolute_url()
    return IDLE, ""


def friends_of(user):
    """[{"user", "state", "link"}] of the people `user` follows, online first."""
    people = relations.followed_users(user)
    open_pages = presence.pages([p.pk for p in people])
    rows = []
    for person in people:
        if person.pk in open_pages:
            state, link = doing(person, open_pages[person.pk])
        else:
            state, link = OFFLINE, ""
        rows.append({"user": person, "state": state, "link": link})
    rows.sort(key=lambda row: (row["state"] == OFFLINE, row["user"].display_name.lower()))
    return rows


def shown_online(viewer, person):
    """Whether `viewer` sees `person` online: never across a block."""
    if viewer is not None and getattr(viewer, "is_authenticated", False) and relations.is_blocked(viewer, person):
        return False
    return presence.is_online(person.pk)
