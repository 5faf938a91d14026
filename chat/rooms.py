"""Who reads and writes which room of a game's chat, and whose messages a person sees.

A game's chat has two rooms. While the game waits or plays, its players talk in the
players' room and everyone else in the spectators' room, and neither reads the other
(nobody coaches a player). Once it is over everyone reads both, and each still writes
in their own. A table opened with the players' chat off (lobby.models.Table) has no
players' room for anyone. The room a message goes to always comes from the writer's
seat as it is now, never from what their page sends.
"""
from dataclasses import dataclass

from chat.models import Mute, Room
from games.models import Game
from social.relations import blocked_either_way


@dataclass(frozen=True)
class Access:
    reads: tuple  # the rooms shown, in order
    writes: str  # the room their messages go to; "" for none
    players_chat: bool = True

    def __bool__(self):
        return bool(self.reads)


def access(game, viewer, players_chat=True):
    """What `viewer` (games.access.Viewer) may read and write in `game`'s chat. The
    caller has checked already that they may see the game or its table."""
    seated = viewer.seat_in(game) is not None
    own = Room.PLAYERS if seated else Room.SPECTATORS
    if game.status == Game.Status.FINISHED:
        reads = (Room.PLAYERS, Room.SPECTATORS)
    else:
        reads = (own,)
    if not players_chat:
        reads = tuple(room for room in reads if room != Room.PLAYERS)
        if own == Room.PLAYERS:
            own = ""
    return Access(reads=tuple(str(room) for room in reads), writes=str(own), players_chat=players_chat)


def hidden_authors(user):
    """The accounts whose messages `user` does not see in any chat: the people they
    muted, and everyone blocked by them or blocking them (social.relations). The one
    place that decides who sees whom: a hidden author's messages are neither drawn in
    their pages nor pushed to them, and the review leaves them out too."""
    if user is None or getattr(user, "pk", None) is None:
        return frozenset()
    muted = frozenset(Mute.objects.filter(muter=user).values_list("muted_id", flat=True))
    return muted | blocked_either_way(user)
