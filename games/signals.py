"""Signals of the game service, for apps above it (the lobby) that must follow games
they cannot be told about directly (games never import them)."""
from django.dispatch import Signal

# Sent by games.services.game_changed after the new state was pushed, in whichever
# process made the change (daphne for a player's move, a Celery worker for the
# computer's). Argument: game (fresh from the database).
state_pushed = Signal()
