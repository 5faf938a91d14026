"""Who is asking and what they may see: the Viewer (a signed-in user and/or a guest's
session token), which seat is theirs, and finding a game they may watch (its players
and the importer of an imported game always; anyone else only once it is public). Views and consumers of every app use these."""
import secrets
from dataclasses import dataclass

from django.db.models import Q
from django.http import Http404

from games.models import Game

GUEST_TOKEN_KEY = "guest_token"


@dataclass(frozen=True)
class Viewer:
    """Who is asking: a signed-in user and/or a guest's session token."""

    user: object = None
    guest_token: str = ""

    @classmethod
    def from_request(cls, request, create=True):
        token = request.session.get(GUEST_TOKEN_KEY, "")
        if not token and create:
            token = secrets.token_urlsafe(24)
            request.session[GUEST_TOKEN_KEY] = token
        user = request.user if request.user.is_authenticated else None
        return cls(user=user, guest_token=token)

    @classmethod
    def from_scope(cls, scope):
        user = scope.get("user")
        session = scope.get("session")
        token = session.get(GUEST_TOKEN_KEY, "") if session is not None else ""
        return cls(user=user if getattr(user, "is_authenticated", False) else None, guest_token=token)

    def seat_among(self, seats):
        """This viewer's seat among `seats` (already loaded), or None."""
        return next((seat for seat in seats if seat.belongs_to(self)), None)

    def seat_in(self, game):
        return self.seat_among(game.seats.all())

    def seats(self, prefix=""):
        """Q for this viewer's seats; `prefix` is the path to the seat ("seats__" from a Game)."""
        mine = Q(**{f"{prefix}guest_token": self.guest_token}) if self.guest_token else Q(pk__in=[])
        if self.user is not None:
            mine |= Q(**{f"{prefix}user": self.user})
        return mine

    def owns(self, game):
        """An imported game this viewer stored (to analyse it): theirs to see like a player's."""
        if game.owner_id is not None:
            return self.user is not None and self.user.pk == game.owner_id
        return bool(game.owner_token) and game.owner_token == self.guest_token

    def games(self):
        """Every game this viewer has a seat in."""
        return Game.objects.filter(self.seats("seats__")).distinct()


def can_watch(game, viewer):
    return game.is_public or viewer.seat_in(game) is not None or viewer.owns(game)


def watchable_game(public_id, viewer):
    """The game with this id if `viewer` may watch it, else None (its seats prefetched)."""
    game = Game.objects.filter(public_id=public_id).prefetch_related("seats").first()
    return game if game is not None and can_watch(game, viewer) else None


def find_game(request, public_id, create_guest=True):
    """The game and the viewer, if this viewer may see it; 404 otherwise, so a private
    game's existence is not revealed. `create_guest=False`: no guest token is made
    (a visitor following a public link to a review stays anonymous)."""
    viewer = Viewer.from_request(request, create=create_guest)
    game = watchable_game(public_id, viewer)
    if game is None:
        raise Http404("No such game.")
    return game, viewer
