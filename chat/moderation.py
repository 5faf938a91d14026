"""Reports and what staff decide: the only writer of Report and Silence rows and of a
message's deletion.

Anyone signed in reports a message they can read (once each; at most REPORT_LIMITS an
hour). Staff, in the admin, delete a message (it vanishes from every open page), uphold
a report (the message is deleted too) or dismiss it, and silence an account. A person
whose messages drew upheld reports three times within a week (AUTOMATIC_SILENCE) is
silenced for a day, once.
"""
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from chat import limits, live, preferences
from chat.models import Message, Report, Silence
from chat.posting import ChatRefusal
from infra.outages import UNREACHABLE

# Upheld reports (of different messages) within this time that silence their author.
AUTOMATIC_SILENCE = {"upheld": 3, "within": timedelta(days=7), "for": timedelta(days=1)}


def report(message, reporter, reason):
    """`reporter` (an account that can read `message`: the caller checked) reports it.
    Returns whether this is a new report; twice is stored once (a unique pair)."""
    if reason not in Report.Reason.values:
        raise ChatRefusal(_("Choose why you report this message."))
    if message.author_id == reporter.pk:
        raise ChatRefusal(_("That is your own message."))
    if Report.objects.filter(message=message, reporter=reporter).exists():
        return False
    try:
        wait = limits.take("report", f"u{reporter.pk}", limits.REPORT_LIMITS)
    except UNREACHABLE:
        wait = 0  # a report is worth more than the limit
    if wait:
        raise ChatRefusal(_("You reported many messages lately. Please wait a while."))
    try:
        with transaction.atomic():
            Report.objects.create(message=message, reporter=reporter, reason=reason)
    except IntegrityError:
        return False
    return True


def delete_message(message_id, by=None):
    """Hides a message from everyone, at once on every open page. A conditional update:
    deleting twice deletes (and pushes) once."""
    with transaction.atomic():
        deleted = Message.objects.filter(pk=message_id, deleted_at=None).update(deleted_at=timezone.now())
        if deleted:
            message = Message.objects.get(pk=message_id)
            transaction.on_commit(lambda: live.message_deleted(message))
    return bool(deleted)


def decide(report_id, upheld, by):
    """Staff uphold (the message is deleted, and its author may be silenced
    automatically) or dismiss an open report. Under the author's user row lock
    (select_for_update), so two decisions about one person silence them once;
    deciding a report twice decides it once (a conditional update on its status)."""
    with transaction.atomic():
        report = Report.objects.select_related("message").get(pk=report_id)
        author_id = report.message.author_id
        if author_id is not None:
            get_user_model().objects.select_for_update().filter(pk=author_id).first()
        status = Report.Status.UPHELD if upheld else Report.Status.DISMISSED
        changed = Report.objects.filter(pk=report_id, status=Report.Status.OPEN).update(
            status=status, decided_at=timezone.now(), decided_by=by)
        if not changed or not upheld:
            return bool(changed)
        delete_message(report.message_id, by)
        if author_id is not None:
            silence_if_reported_too_often(author_id)
    return True


def silence_if_reported_too_often(author_id):
    """Inside decide's lock: a day's silence after AUTOMATIC_SILENCE's upheld reports,
    unless one is on already."""
    since = timezone.now() - AUTOMATIC_SILENCE["within"]
    upheld = (Report.objects.filter(message__author_id=author_id, status=Report.Status.UPHELD, decided_at__gte=since)
              .values("message_id").distinct().count())
    if upheld < AUTOMATIC_SILENCE["upheld"]:
        return None
    if preferences.active_silences().filter(user_id=author_id).exists():
        return None
    return silence(author_id, until=timezone.now() + AUTOMATIC_SILENCE["for"], automatic=True)


def silence(user_id, until=None, by=None, automatic=False):
    """The account can no longer chat anywhere (until `until`, None: until lifted); their
    open pages tell them at once."""
    created = Silence.objects.create(user_id=user_id, until=until, given_by=by, automatic=automatic)
    transaction.on_commit(lambda: live.person_changed(user_id))
    return created


def lift(silence_id):
    lifted = Silence.objects.filter(pk=silence_id, lifted_at=None).update(lifted_at=timezone.now())
    if lifted:
        user_id = Silence.objects.get(pk=silence_id).user_id
        transaction.on_commit(lambda: live.person_changed(user_id))
    return bool(lifted)


def silence_account(user_id, by):
    """Staff silence an account until lifted; asked twice, silenced once (under the
    user row's lock, select_for_update)."""
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user_id).first()
        if preferences.active_silences().filter(user_id=user_id, until=None).exists():
            return None
        return silence(user_id, by=by)
