from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = "Lobby and tables"

    def ready(self):
        from games.signals import seats_changed, state_pushed
        from lobby.broadcast import on_seats_changed, on_state_pushed

        state_pushed.connect(on_state_pushed, dispatch_uid="lobby.on_state_pushed")
        seats_changed.connect(on_seats_changed, dispatch_uid="lobby.on_seats_changed")
