"""The app's parts on other apps' pages: the header's live part (base.html), the
buttons and presence on a player page, the settings on the profile page."""
import time

from django import template

from social import friends, preferences, relations
from social.forms import SettingsForm
from social.live import live_context, page_drawn

register = template.Library()


@register.inclusion_tag("social/includes/bell.html", takes_context=True)
def social_bell(context):
    from social.notifications import unread_count  # noqa: PLC0415
    return {"unread": unread_count(context["request"].user)}


@register.inclusion_tag("social/includes/notices.html", takes_context=True)
def social_notices(context):
    request = context["request"]
    page_drawn(request.user, request.path)
    return {**live_context(request.user, request.path), "request": request, "csrf_token": context.get("csrf_token")}


@register.simple_tag
def page_opened():
    """Now, in ms since the epoch: the page's socket says when the page was drawn (social.live)."""
    return int(time.time() * 1000)


@register.inclusion_tag("social/includes/player_panel.html", takes_context=True)
def social_player_panel(context, player):
    viewer = context["request"].user
    signed_in = viewer.is_authenticated
    return {"player": player, "signed_in": signed_in, "csrf_token": context.get("csrf_token"),
            "online": friends.shown_online(viewer, player),
            "follows": signed_in and relations.follows(viewer, player),
            "blocks": signed_in and relations.blocks(viewer, player),
            "blocked": signed_in and relations.is_blocked(viewer, player)}


@register.inclusion_tag("social/includes/settings.html", takes_context=True)
def social_settings(context):
    prefs = preferences.of(context["request"].user)
    form = SettingsForm(initial={"mail_challenges": prefs.mail_challenges, "mail_your_turn": prefs.mail_your_turn,
                                 "challenge_boards": prefs.challenge_boards})
    return {"form": form, "csrf_token": context.get("csrf_token")}
