"""Direct challenges: the only writer of Challenge rows.

A challenge is open until the challenged person accepts or declines it, the
challenger cancels it, or it lapses (LAPSE_AFTER, correspondence LAPSE_AFTER_DAYS;
social.tasks.lapse_challenges, and every read treats a challenge past its time as
lapsed already). Accepting opens a table through lobby.actions (the only writer of
tables) with both seated, which starts the game. Every change of status is a
conditional update on the challenge being open, inside the transaction that does the
rest: of two accepts (or an accept and a cancel) exactly one changes it, and only that
one opens a table.
"""
import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games import Variant
from games.access import Viewer
from games.models import Game
from games.presentation import time_control_label, variant_label
from lobby import actions as table_actions
from social import notifications, relations
from social.models import Challenge, Preferences

LAPSE_AFTER = timedelta(minutes=10)
LAPSE_AFTER_DAYS = timedelta(days=3)
MAX_OPEN = 10  # open challenges one person may have sent at once
# Challenges one person may send in an hour, in all and to one person, that did not
# lead to a game: accepted ones are friends playing on and do not count; declined,
# lapsed and cancelled ones do (each rang the other's bell, and mailed them if away:
# sending and cancelling is no way to flood someone's header).
PER_HOUR, PER_HOUR_TO_ONE = 30, 3


class ChallengeError(Exception):
    """A refusal, in the asker's language; nothing changed."""


def open_q(now=None):
    return Q(status=Challenge.Status.OPEN, expires_at__gt=now or timezone.now())


def send(challenger, challenged, variant, *, time_control, colour, rated):
    """`challenger` asks `challenged` for a game. `time_control`: (Game.TimeControl,
    total seconds, increment seconds). Refused (ChallengeError) when either blocks the
    other, when an open challenge or a game from one stands between them, when the
    challenged takes no challenges on that board, past MAX_OPEN open challenges, or past
    PER_HOUR sent in an hour that were not accepted (PER_HOUR_TO_ONE to the same person).
    Locks: the challenger's user row (select_for_update), so two sends at once count
    each other against MAX_OPEN."""
    if challenged is None or not challenged.is_active:
        raise ChallengeError(_("There is no such player."))
    if challenger.pk == challenged.pk:
        raise ChallengeError(_("You cannot challenge yourself."))
    if relations.is_blocked(challenger, challenged):
        raise ChallengeError(_("You cannot challenge %(name)s.") % {"name": challenged.display_name})
    if variant.players != 2:
        raise ChallengeError(_("A challenge is for two players."))
    boards = Preferences.objects.filter(user=challenged).values_list("challenge_boards", flat=True).first()
    if boards and variant.board not in boards:
        raise ChallengeError(_("%(name)s takes no challenges on this board.") % {"name": challenged.display_name})
    control, total, increment = time_control
    now = timezone.now()
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=challenger.pk).first()
        pair = Q(challenger=challenger, challenged=challenged) | Q(challenger=challenged, challenged=challenger)
        if Challenge.objects.filter(pair, open_q(now)).exists():
            raise ChallengeError(_("A challenge between you and %(name)s is already waiting for an answer.")
                                 % {"name": challenged.display_name})
        if Challenge.objects.filter(pair, status=Challenge.Status.ACCEPTED, game__status__in=[
                Game.Status.WAITING, Game.Status.PLAYING]).exists():
            raise ChallengeError(_("You are already playing a challenge with %(name)s.")
                                 % {"name": challenged.display_name})
        if Challenge.objects.filter(open_q(now), challenger=challenger).count() >= MAX_OPEN:
            raise ChallengeError(_("You have %(n)d challenges waiting for an answer: wait for one, "
                                   "or cancel one.") % {"n": MAX_OPEN})
        hour = Challenge.objects.filter(challenger=challenger, created_at__gt=now - timedelta(hours=1)).exclude(
            status=Challenge.Status.ACCEPTED)
        if hour.count() >= PER_HOUR or hour.filter(challenged=challenged).count() >= PER_HOUR_TO_ONE:
            raise ChallengeError(_("You challenged too often. Wait an hour."))
        lapse = LAPSE_AFTER_DAYS if control == Game.TimeControl.DAYS else LAPSE_AFTER
        challenge = Challenge.objects.create(
            challenger=challenger, challenged=challenged, variant=variant.to_dict(), time_control=control,
            time_total=total, time_increment=increment, colour=colour, rated=rated, expires_at=now + lapse)
        notifications.challenge_received(challenge)
    return challenge


def accept(challenge_id, user):
    """The challenged `user` accepts: a table opens with both seated and the game
    starts. Returns the challenge (with its table_code). Locks: a conditional update
    of the challenge on being open and unexpired (one of two accepts wins), then
    the game row inside lobby.actions / games.seating; all in one transaction, so a
    table that cannot open leaves the challenge open."""
    now = timezone.now()
    with transaction.atomic():
        challenge = Challenge.objects.select_related("challenger", "challenged").filter(
            pk=challenge_id, challenged=user).first()
        if challenge is None:
            raise ChallengeError(_("There is no such challenge."))
        if not Challenge.objects.filter(open_q(now), pk=challenge.pk).update(
                status=Challenge.Status.ACCEPTED, answered_at=now):
            raise ChallengeError(_refusal_of_closed(challenge, now))
        if relations.is_blocked(challenge.challenger, user):
            raise ChallengeError(_("You cannot play %(name)s.") % {"name": challenge.challenger.display_name})
        colour = challenge.colour
        if colour == Challenge.Colour.RANDOM:
            colour = random.SystemRandom().choice(["black", "white"])
        other = "white" if colour == "black" else "black"
        try:
            table = table_actions.open_table(
                challenge.challenger, Variant.from_dict(challenge.variant), host_colour=colour,
                rated=challenge.rated, time_control=(challenge.time_control, challenge.time_total,
                                                      challenge.time_increment), waits=False)
            table_actions.join(table, Viewer(user=user), other)
        except table_actions.GameError as error:
            raise ChallengeError(str(error)) from None
        Challenge.objects.filter(pk=challenge.pk).update(table_code=table.code, game=table.game_id)
        challenge.status, challenge.table_code, challenge.game_id = Challenge.Status.ACCEPTED, table.code, table.game_id
        notifications.challenge_answered(challenge)
    return challenge


def decline(challenge_id, user):
    return _close(challenge_id, Q(challenged=user), Challenge.Status.DECLINED)


def cancel(challenge_id, user):
    return _close(challenge_id, Q(challenger=user), Challenge.Status.CANCELLED)


def _close(challenge_id, whose, status):
    """Decline or cancel: a conditional update on the challenge being open (once)."""
    now = timezone.now()
    with transaction.atomic():
        challenge = Challenge.objects.select_related("challenger", "challenged").filter(
            whose, pk=challenge_id).first()
        if challenge is None:
            raise ChallengeError(_("There is no such challenge."))
        if not Challenge.objects.filter(open_q(now), pk=challenge.pk).update(status=status, answered_at=now):
            raise ChallengeError(_refusal_of_closed(challenge, now))
        challenge.status = status
        notifications.challenge_answered(challenge)
    return challenge


def answer_seen(challenge_id, user, now=None):
    """The challenger saw the answer in their header (social.live): marked once, the
    first time; a challenge still waiting has no answer to see yet."""
    now = now or timezone.now()
    Challenge.objects.filter(pk=challenge_id, challenger=user, answer_seen_at=None).exclude(
        open_q(now)).update(answer_seen_at=now)


def table_reached(user, code, now=None):
    """`user` opened the table that their accepted challenge points to: the answer is seen.
    Written only when there is one to mark: every table page of theirs asks, and a read
    needs no write lock (infra.write_waits) where an UPDATE matching nothing would."""
    unseen = Challenge.objects.filter(challenger=user, status=Challenge.Status.ACCEPTED, table_code=code,
                                      answer_seen_at=None)
    if unseen.exists():
        unseen.update(answer_seen_at=now or timezone.now())


def lapse_due(now=None):
    """Open challenges past their time lapse, each told to both once. Returns how many."""
    now = now or timezone.now()
    count = 0
    for challenge_id in list(Challenge.objects.filter(status=Challenge.Status.OPEN, expires_at__lte=now)
                             .values_list("pk", flat=True)[:500]):
        with transaction.atomic():
            if Challenge.objects.filter(pk=challenge_id, status=Challenge.Status.OPEN, expires_at__lte=now).update(
                    status=Challenge.Status.LAPSED, answered_at=now):
                count += 1
                notifications.challenge_answered(
                    Challenge.objects.select_related("challenger", "challenged").get(pk=challenge_id))
    return count


def _refusal_of_closed(challenge, now):
    if challenge.status == Challenge.Status.OPEN and challenge.expires_at <= now:
        return _("This challenge has lapsed.")
    if challenge.status == Challenge.Status.ACCEPTED:
        return _("This challenge was accepted already.")
    if challenge.status == Challenge.Status.DECLINED:
        return _("This challenge was declined.")
    if challenge.status == Challenge.Status.CANCELLED:
        return _("This challenge was cancelled.")
    return _("This challenge has lapsed.")


def status_of(challenge, now=None):
    """The status as people see it: an open challenge past its time is lapsed."""
    if challenge.status == Challenge.Status.OPEN and challenge.expires_at <= (now or timezone.now()):
        return Challenge.Status.LAPSED
    return challenge.status


def describe(challenge):
    """'8×8 · 2 players · 3+2 · rated' in the current language."""
    return variant_label(challenge.variant), time_control_label(challenge)


def incoming(user):
    return list(Challenge.objects.filter(open_q(), challenged=user).select_related("challenger__profile")
                .order_by("created_at"))


def outgoing(user):
    return list(Challenge.objects.filter(open_q(), challenger=user).select_related("challenged__profile")
                .order_by("created_at"))
