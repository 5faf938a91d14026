from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from django.contrib.auth import get_user_model

        from accounts.models import display_name_of

        # Seats, the lobby and the header read `user.display_name` (games.models.Seat).
        user_model = get_user_model()
        if not hasattr(user_model, "display_name"):
            user_model.add_to_class("display_name", property(display_name_of))

        from django.contrib.auth.signals import user_logged_in

        from accounts.guest_games import claim_on_login

        user_logged_in.connect(claim_on_login, dispatch_uid="accounts.claim_guest_seats")

        from accounts.ratings import rate_game
        from games.signals import game_finished

        # Inside the finishing transaction: a rated game is rated exactly once.
        game_finished.connect(rate_game, dispatch_uid="accounts.rate_game")
