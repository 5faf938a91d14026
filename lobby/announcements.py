"""Site-wide announcements, pushed live to every open page.

An operator announces maintenance ("the server restarts in five minutes") with
`python -m lobby.announcements "text"`; the text reaches every page through the
channel layer, from whichever process sends it (a Celery worker, a shell).

The site socket lives in lobby because it is what counts people online (lobby.counts);
social's notification socket builds on it. Routed in config.routing.
"""
from celery import shared_task
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from games import broadcast
from infra import sending
from lobby import counts as online

GROUP = "site"


class AnnouncementConsumer(AsyncWebsocketConsumer):
    """Every page listens here (a signed-in person's through social's notification
    socket, built on this one); messages are whole HTML fragments swapped by id. Being
    the one socket every page opens, it is what counts its person online (lobby.counts)."""

    async def connect(self):
        await broadcast.join(self, GROUP)  # opens even while Redis is away
        await self.accept()
        await self.count_online()

    async def count_online(self):
        self.person = online.person_of(self.scope, self.channel_name)
        await online.arrive(self.person)

    async def disconnect(self, code):
        await broadcast.leave(self, GROUP)
        if getattr(self, "person", None):
            await online.depart(self.person)

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
