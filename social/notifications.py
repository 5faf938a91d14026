"""Notifications: the only writer of Notification rows, and what tells people live and
by mail.

A notification is stored once per event (a unique key per person) with what happened
as parameters, drawn in the reader's language when shown. After the commit, the
person's notification sockets (group user-<id>, in every daphne) are told to draw
their header's live part again: the bell's unread count and the open challenges,
whole, so a page that missed a push catches up at the next one or on reconnecting.
Mail goes, through a Celery task, to those not online (social.online) who opted in
for the kind (Preferences), with a one-click unsubscribe link (social.unsubscribe).
"""
import logging

from celery import current_app
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from games.presentation import variant_label
from infra import sending
from infra.outages import UNREACHABLE
from social.models import Challenge, Notification

log = logging.getLogger(__name__)

KEEP = 100  # the bell's page lists this many, the newest first


def group(user_id):
    return f"user-{user_id}"


def notify(user_id, kind, params=None, url="", key="", text=""):
    """Store one notification (once per `key`) and tell the person's pages after
    commit. Returns it, or None if this event was told already."""
    try:
        with transaction.atomic():
            notification = Notification.objects.create(user_id=user_id, kind=kind, params=params or {}, url=url,
                                                       key=key, text=text)
    except IntegrityError:
        return None
    push_later(user_id)
    return notification


def push_later(user_id):
    transaction.on_commit(lambda: push(user_id))


def push(user_id):
    """Tell every open page of the person to draw its header's live part again."""
    try:
        sending.group_send(group(user_id), {"type": "social.changed"})
    except UNREACHABLE as error:
        log.warning("user %s not told live (%s); their pages catch up on reconnect", user_id, error)


def text_of(notification):
    """What happened, in the current language."""
    p, kind = notification.params, notification.kind
    if kind == Notification.Kind.CHALLENGE:
        return _("%(name)s challenges you: %(variant)s") % {"name": p.get("name", ""),
                                                             "variant": variant_label(p["variant"])}
    if kind == Notification.Kind.CHALLENGE_ANSWER:
        return _("Your challenge to %(name)s: %(status)s") % {
            "name": p.get("name", ""), "status": Challenge.Status(p["status"]).label}
    if kind == Notification.Kind.YOUR_TURN:
        return _("Your turn: %(variant)s") % {"variant": variant_label(p["variant"])}
    if kind == Notification.Kind.FRIEND_PLAYING:
        return _("%(name)s started a game: %(variant)s") % {"name": p.get("name", ""),
                                                             "variant": variant_label(p["variant"])}
    if kind == Notification.Kind.REMATCH:
        return _("A rematch is offered at your table.")
    return notification.text


def unread_count(user):
    return Notification.objects.filter(user=user, read=False).count()


def latest(user):
    return list(Notification.objects.filter(user=user)[:KEEP])


def mark_read(user):
    """Everything shown on the bell's page is read (one update)."""
    if Notification.objects.filter(user=user, read=False).update(read=True):
        push_later(user.pk)


def queue_mail(notification_id, kind):
    """After commit, a worker mails it if its person is away and opted in (social.tasks)."""
    def queue():
        try:
            current_app.send_task("social.mail_notification", args=[notification_id, kind], queue="tables")
        except UNREACHABLE as error:
            log.warning("mail for notification %s not queued (%s)", notification_id, error)
    transaction.on_commit(queue)


# -- the events --------------------------------------------------------------

def challenge_received(challenge):
    url = reverse("social:challenge", args=[challenge.pk])
    notification = notify(challenge.challenged_id, Notification.Kind.CHALLENGE,
                          {"name": challenge.challenger.display_name, "variant": challenge.variant}, url,
                          key=f"challenge:{challenge.pk}")
    push_later(challenge.challenger_id)  # their own pages list it as waiting
    if notification is not None:
        queue_mail(notification.pk, "challenges")


def challenge_answered(challenge):
    """Accepted, declined or lapsed: the challenger is told; cancelled: both pages redrawn."""
    if challenge.status != Challenge.Status.CANCELLED:
        notify(challenge.challenger_id, Notification.Kind.CHALLENGE_ANSWER,
               {"name": challenge.challenged.display_name, "status": challenge.status},
               reverse("social:challenge", args=[challenge.pk]), key=f"answer:{challenge.pk}")
    else:
        push_later(challenge.challenger_id)
    push_later(challenge.challenged_id)


def your_turn(game, user_id, url):
    notify(user_id, Notification.Kind.YOUR_TURN, {"variant": game.variant}, url, key=f"turn:{game.pk}:{game.ply}")


def friend_playing(game, player, follower_ids, url):
    for follower_id in follower_ids:
        notify(follower_id, Notification.Kind.FRIEND_PLAYING,
               {"name": player.display_name, "variant": game.variant}, url, key=f"friend:{game.pk}:{player.pk}")


def rematch_offered(user_id, game, url):
    notify(user_id, Notification.Kind.REMATCH, {"variant": game.variant}, url, key=f"rematch:{game.pk}")


def moderator_message(user_id, text):
    return notify(user_id, Notification.Kind.MODERATOR, text=text)


def users(ids):
    return get_user_model().objects.filter(pk__in=ids)
