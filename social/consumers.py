"""The site stream of a signed-in person's page socket (config.routing: ?site=1).

It carries what a visitor's site stream carries (announcements: lobby.announcements; its
person online, on the page it is on: infra.presence) and, for its person, the
header's live part (the bell's unread count and the open challenges), drawn whole on
connect and again whenever social.notifications tells the person's group, for the
page it is on (?path=<path>) as opened then (?opened=<ms>: social.live).
Origin-checked like every socket (config.asgi); a visitor without an account is refused."""
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.utils import timezone, translation

from games import broadcast
from games.consumers import requested_language
from lobby.announcements import AnnouncementConsumer
from lobby.announcements import GROUP as SITE_GROUP
from social.live import opened_at, render_live
from social.notifications import group


def query_of(scope):
    return {name: values[0] for name, values in parse_qs(scope.get("query_string", b"").decode("latin-1")).items()}


def page_of(scope):
    """The path of the page that opened the socket, as it says (only a path is kept)."""
    page = query_of(scope).get("path", "")
    return page[:200] if page.startswith("/") and "|" not in page else ""


class NotificationConsumer(AnnouncementConsumer):
    async def connect(self):
        user = self.scope.get("user")
        if not getattr(user, "is_authenticated", False):
            await self.close()
            return
        self.user_id = user.pk
        self.language = requested_language(self.scope)
        self.page = page_of(self.scope)
        self.opened = opened_at(query_of(self.scope).get("opened")) or timezone.now()
        await broadcast.join(self, SITE_GROUP)
        await broadcast.join(self, group(self.user_id))
        await self.accept()
        # Online, on this page, before the first frame: a page that has heard from its socket counts.
        await self.count_online(self.page)
        await self.social_changed({})

    async def disconnect(self, code):
        if getattr(self, "user_id", None) is None:
            return
        await broadcast.leave(self, group(self.user_id))
        await super().disconnect(code)  # the site's group, and its person's presence

    async def receive(self, text_data=None, bytes_data=None):
        """Pages send nothing that matters here: every action goes through HTTP with CSRF."""

    async def social_changed(self, event):
        await self.send(text_data=await self.live())

    @database_sync_to_async
    def live(self):
        with translation.override(self.language):
            return render_live(self.user_id, self.page, self.opened)
