"""Celery: challenges lapse (beat), notification mail to people away (thin: they call
social.challenges and social.mail)."""
from celery import shared_task

from social import challenges, mail


@shared_task(name="social.lapse_challenges")
def lapse_challenges():
    return challenges.lapse_due()


@shared_task(name="social.mail_notification")
def mail_notification(notification_id, kind):
    return mail.send_if_away(notification_id, kind)
