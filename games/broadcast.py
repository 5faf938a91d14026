"""Pushing a game's whole current state to every page that shows it."""
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from games.presentation import game_state


def render_state(game):
    """The out-of-band fragments of a game's state (the same for every page)."""
    return render_to_string("games/includes/state.html", game_state(game))


def render_state_in_every_language(game):
    rendered = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            rendered[code] = render_state(game)
    return rendered


def send_state(game):
    # Whole, idempotent states tagged with the version: a page that misses one
    # loses nothing, and a late one never overwrites a newer state. Rendered once
    # per language, not once per page.
    async_to_sync(get_channel_layer().group_send)(
        game.group_name,
        {"type": "game.state", "html": render_state_in_every_language(game), "version": game.version},
    )
