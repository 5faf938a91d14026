"""The header's live part for one person, drawn whole: the bell with its unread count,
the challenges waiting for their answer (Accept / Decline in place), and the status of
the answers to the challenges they sent (a challenge's page goes to the table once
it is accepted: static/js/challenge.js). Served with every page and pushed over the notification socket; htmx swaps
each part by its id.

An answer is shown until its challenger has seen it: the first page that shows it
says so (its notice posts to social:answer_seen as it loads), and from then on only
the pages opened before that keep showing it, so it does not follow them to the next
page. An accepted challenge is not shown at the table it points to, and reaching that
table is seeing it."""
from datetime import datetime, timedelta
from datetime import timezone as tz

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone

from games.models import Game
from lobby.access import code_in
from social import challenges, notifications
from social.models import Challenge

# How long the header shows the answer to a challenge sent, at most (an answer nobody
# marks seen, on a page without JavaScript): accepted ones while the game is on (at most
# ACCEPTED_SHOWN), declined and lapsed ones for ANSWER_SHOWN.
ANSWER_SHOWN = timedelta(minutes=2)
ACCEPTED_SHOWN = timedelta(minutes=15)


def live_context(user, page="", opened=None):
    """What the live part shows `user` on the page at path `page`, opened at `opened`
    (None: now, the page being drawn)."""
    now = timezone.now()
    answered = Challenge.objects.filter(challenger=user).filter(
        Q(status=Challenge.Status.ACCEPTED, answered_at__gte=now - ACCEPTED_SHOWN,
          game__status__in=[Game.Status.WAITING, Game.Status.PLAYING])
        | Q(status__in=[Challenge.Status.DECLINED, Challenge.Status.LAPSED], answered_at__gte=now - ANSWER_SHOWN)
        | Q(status=Challenge.Status.OPEN, expires_at__lte=now, expires_at__gte=now - ANSWER_SHOWN)
    ).filter(Q(answer_seen_at=None) | Q(answer_seen_at__gte=opened or now))
    code = code_in(page)
    if code:
        answered = answered.exclude(status=Challenge.Status.ACCEPTED, table_code=code)
    answered = answered.select_related("challenged__profile").order_by("-created_at")[:5]
    return {"unread": notifications.unread_count(user), "incoming": challenges.incoming(user),
            "answered": [{"challenge": c, "status": challenges.status_of(c, now), "seen": c.answer_seen_at is not None}
                         for c in answered]}


def page_drawn(user, page):
    """A page of `user`'s is drawn at path `page`: the table it shows is reached."""
    code = code_in(page)
    if code:
        challenges.table_reached(user, code)


def opened_at(milliseconds):
    """When a page was opened, from what its socket says (ms since the epoch), else None."""
    try:
        return datetime.fromtimestamp(int(milliseconds) / 1000, tz=tz.utc)
    except (TypeError, ValueError, OverflowError, OSError):
        return None


def render_live(user_id, page="", opened=None):
    user = get_user_model().objects.get(pk=user_id)
    return render_to_string("social/includes/live.html", {**live_context(user, page, opened), "oob": True})
