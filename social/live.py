"""The header's live part for one person, drawn whole: the bell with its unread count,
the challenges waiting for their answer (Accept / Decline in place), and the status of
the answers to the challenges they sent (a challenge's page goes to the table once
it is accepted: static/js/challenge.js). Served with every page and pushed over the notification socket; htmx swaps
each part by its id."""
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone

from games.models import Game
from social import challenges, notifications
from social.models import Challenge

# How long the header shows the answer to a challenge sent: accepted ones while the
# game is on (at most ACCEPTED_SHOWN), declined and lapsed ones for ANSWER_SHOWN.
ANSWER_SHOWN = timedelta(minutes=2)
ACCEPTED_SHOWN = timedelta(minutes=15)


def live_context(user):
    now = timezone.now()
    answered = Challenge.objects.filter(challenger=user).filter(
        Q(status=Challenge.Status.ACCEPTED, answered_at__gte=now - ACCEPTED_SHOWN,
          game__status__in=[Game.Status.WAITING, Game.Status.PLAYING])
        | Q(status__in=[Challenge.Status.DECLINED, Challenge.Status.LAPSED], answered_at__gte=now - ANSWER_SHOWN)
        | Q(status=Challenge.Status.OPEN, expires_at__lte=now, expires_at__gte=now - ANSWER_SHOWN)
    ).select_related("challenged__profile").order_by("-created_at")[:5]
    return {"unread": notifications.unread_count(user), "incoming": challenges.incoming(user),
            "answered": [{"challenge": c, "status": challenges.status_of(c, now)} for c in answered]}


def render_live(user_id):
    user = get_user_model().objects.get(pk=user_id)
    return render_to_string("social/includes/live.html", {**live_context(user), "oob": True})
