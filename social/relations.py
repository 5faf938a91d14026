"""Follows and blocks: the only writer of Follow and Block rows.

Following needs no confirmation; a block stops challenges both ways, hides each from
the other's presence, and is what chat asks before it delivers (is_blocked). Every
change is one insert or delete guarded by a unique constraint, so a double click
does it once.
"""
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from social.models import Block, Follow


class RelationError(Exception):
    """A refusal, in the asker's language."""


def _other(user, other):
    if other is None or not other.is_active:
        raise RelationError(_("There is no such player."))
    if user.pk == other.pk:
        raise RelationError(_("That is you."))


def follow(user, other):
    """`user` follows `other` (again: nothing changes). Refused while either blocks the other."""
    _other(user, other)
    if is_blocked(user, other):
        raise RelationError(_("You cannot follow a player you blocked or who blocked you."))
    try:
        with transaction.atomic():
            Follow.objects.create(follower=user, followed=other)
    except IntegrityError:
        pass  # followed already: a second click


def unfollow(user, other):
    Follow.objects.filter(follower=user, followed=other).delete()


def block(user, other):
    """`user` blocks `other`: any follow between them ends. Inside one transaction."""
    _other(user, other)
    with transaction.atomic():
        Follow.objects.filter(Q(follower=user, followed=other) | Q(follower=other, followed=user)).delete()
        try:
            with transaction.atomic():
                Block.objects.create(blocker=user, blocked=other)
        except IntegrityError:
            pass


def unblock(user, other):
    Block.objects.filter(blocker=user, blocked=other).delete()


def is_blocked(a, b):
    """Whether either of the two people blocked the other: then neither may challenge,
    chat to or see the other online. Takes users or user ids; guests (None) never are."""
    a_id, b_id = getattr(a, "pk", a), getattr(b, "pk", b)
    if a_id is None or b_id is None:
        return False
    return Block.objects.filter(Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)).exists()


def blocked_either_way(user):
    """The ids of everyone `user` blocked or was blocked by (chat hides them both ways)."""
    if user is None or user.pk is None:
        return frozenset()
    mine = Block.objects.filter(blocker=user).values_list("blocked_id", flat=True)
    theirs = Block.objects.filter(blocked=user).values_list("blocker_id", flat=True)
    return frozenset(mine) | frozenset(theirs)


def follows(user, other):
    return Follow.objects.filter(follower=user, followed=other).exists()


def blocks(user, other):
    return Block.objects.filter(blocker=user, blocked=other).exists()


def followed_users(user):
    """The people `user` follows, minus any block between them, by name."""
    hidden = hidden_from(user)
    return [f.followed for f in Follow.objects.filter(follower=user).select_related("followed__profile")
            .order_by("followed__username") if f.followed_id not in hidden]


def hidden_from(user):
    """Ids of the people `user` blocked or is blocked by."""
    pairs = Block.objects.filter(Q(blocker=user) | Q(blocked=user)).values_list("blocker_id", "blocked_id")
    return {b if a == user.pk else a for a, b in pairs}


def followers_of(user_ids):
    """{followed id: [follower ids]} of the people followed among `user_ids`."""
    found = {}
    for follower, followed in Follow.objects.filter(followed_id__in=user_ids).values_list("follower_id", "followed_id"):
        found.setdefault(followed, []).append(follower)
    return found
