"""A person's own chat choices: the switch (off hides every chat; an account's in a
ChatSetting row, a guest's in their session) and their mutes. The only writer of
ChatSetting and Mute rows. Also how a silence reads (chat.moderation gives them)."""
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from chat import live
from chat.models import ChatSetting, Mute, Silence

SESSION_KEY = "chat_off"


def chat_on(user, session):
    """Whether this person reads and writes chat (`user` None: a guest, by `session`)."""
    if user is not None:
        return not ChatSetting.objects.filter(user=user, chat_on=False).exists()
    return not (session is not None and session.get(SESSION_KEY))


def switch(user, session, on):
    """Turns this person's chat on or off; their open pages follow (chat.live). One
    conditional write: switching twice leaves it as switched once."""
    if user is None:
        session[SESSION_KEY] = not on
        return
    ChatSetting.objects.update_or_create(user=user, defaults={"chat_on": on})
    transaction.on_commit(lambda: live.person_changed(user.pk))


def mute(muter, muted):
    """`muter` no longer sees `muted`'s messages anywhere; done twice, stored once (a
    unique pair). Their open pages drop those messages at once."""
    if muted.pk == muter.pk:
        return False
    try:
        with transaction.atomic():
            Mute.objects.create(muter=muter, muted=muted)
    except IntegrityError:
        return False
    transaction.on_commit(lambda: live.person_changed(muter.pk))
    return True


def unmute(muter, muted_id):
    deleted, _rows = Mute.objects.filter(muter=muter, muted_id=muted_id).delete()
    if deleted:
        transaction.on_commit(lambda: live.person_changed(muter.pk))
    return bool(deleted)


def mutes_of(user):
    return Mute.objects.filter(muter=user).select_related("muted__profile")


def active_silences():
    return Silence.objects.filter(lifted_at=None).filter(Q(until=None) | Q(until__gt=timezone.now()))


def silence_of(user):
    """The silence keeping `user` from chatting now (the longest), or None."""
    silences = list(active_silences().filter(user=user))
    if not silences:
        return None
    return next((s for s in silences if s.until is None), None) or max(silences, key=lambda s: s.until)


def silence_sentence(silence):
    """What a silenced person is told, in their language."""
    if silence.until is None:
        return _("A moderator silenced your account: you can read chat but not write.")
    until = formats.date_format(timezone.localtime(silence.until), "DATETIME_FORMAT")
    if silence.automatic:
        return _("Your account is silenced until %(until)s: three of your messages were reported and "
                 "removed within a week. You can read chat but not write.") % {"until": until}
    return _("A moderator silenced your account until %(until)s: you can read chat but not write.") % {"until": until}
