"""The <game_id:...> URL part (registered in GamesConfig.ready): what
games.models.new_public_id makes, nothing else.

Any other text (a NUL byte, which PostgreSQL refuses in a query, or a megabyte of
it) is a plain 404 before a view or consumer runs.
"""
from django.urls import register_converter


class GameIdConverter:
    regex = r"[A-Za-z0-9_-]{1,16}"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(GameIdConverter, "game_id")
