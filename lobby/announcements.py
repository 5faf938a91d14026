"""Site-wide announcements, pushed live to every open page.

An operator announces maintenance ("the server restarts in five minutes") with
`python -m lobby.announcements "text"`; the text reaches every page through the
channel layer, from whichever process sends it (a Celery worker, a shell).

The site's stream of every page's socket (?site=1) lives in lobby because it is what
counts people online (lobby.counts); social's notification stream builds on it. Wired
in config.routing.
"""
import logging

from celery import shared_task
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from games import broadcast
from infra import sending
from infra.outages import UNREACHABLE
from infra.presence import person_of, presence

log = logging.getLogger(__name__)

GROUP = "site"


class AnnouncementConsumer(AsyncWebsocketConsumer):
    """Every page listens here (a signed-in person's through social's notification
    stream, built on this one); messages are whole HTML fragments swapped by id. Being
    the one stream every page opens, it is what says its person is online, on which
    page (infra.presence)."""

    async def connect(self):
        await broadcast.join(self, GROUP)  # opens even while Redis is away
        await self.accept()
        await self.count_online()

    async def count_online(self, path=""):
        self.counted = True
        try:
            await presence.arrive(self.channel_name, person_of(self.scope, self.channel_name), path)
        except UNREACHABLE:  # the marks are written again every heartbeat
            log.warning("presence of %s not kept: Redis is away", self.channel_name)

    async def disconnect(self, code):
        await broadcast.leave(self, GROUP)
        if getattr(self, "counted", False):
            try:
                await presence.depart(self.channel_name)
            except UNREACHABLE:
                pass  # the marks lapse by themselves

    async def site_announcement(self, event):
        await self.send(text_data=event["html"])


def announce_now(text):
    html = render_to_string("includes/announcement.html", {"text": text})
    sending.group_send(GROUP, {"type": "site.announcement", "html": html})


@shared_task(name="lobby.announce", ignore_result=False)  # a shell may wait for it
def announce(text):
    announce_now(text)
    return len(text)


if __name__ == "__main__":
    import sys

    import django

    django.setup()
    announce_now(" ".join(sys.argv[1:]))
