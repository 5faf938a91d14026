from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from social import receivers  # noqa: F401  (follows games through games.signals)
