from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from games import converters  # noqa: F401  registers <game_id:...> before any URLconf loads
