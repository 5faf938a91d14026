"""Mail for notifications that matter when away (challenges; a correspondence turn is
games.turn_mail's, which this app gives its opt-out and unsubscribe link through
games.signals.turn_mail_sending)."""
from django.core.mail import EmailMessage
from django.utils import translation

from infra.site_url import absolute
from social import languages, notifications, online, preferences, unsubscribe
from social.models import Notification


def send_if_away(notification_id, kind):
    """Mail the notification to its person if they are away and opted in: whether sent."""
    notification = Notification.objects.select_related("user").filter(pk=notification_id).first()
    if notification is None or not notification.user.email:
        return False
    if not getattr(preferences.of(notification.user), unsubscribe.KINDS[kind]):
        return False
    if online.is_online(notification.user_id):
        return False  # told live
    stop = unsubscribe.link(notification.user_id, kind)
    with translation.override(languages.of(notification.user)):
        text = notifications.text_of(notification)
        body = f"{text}\n\n{absolute(notification.url)}\n\n{unsubscribe.footer(stop)}\n"
    message = EmailMessage(text, body, None, [notification.user.email], headers=unsubscribe.headers(stop))
    message.send()
    return True
