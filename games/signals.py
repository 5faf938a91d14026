"""Signals of the game service, for apps above it (the lobby) that must follow games
they cannot be told about directly (games never import them)."""
from django.dispatch import Signal

# Sent by games.publishing.game_changed after the new events were published, in whichever
# process made the change (daphne for a player's move, a Celery worker for the
# computer's). Argument: game (fresh from the database).
state_pushed = Signal()

# Sent by games.writer inside the transaction that finishes a game, once
# per game (the move that finishes it is applied exactly once). Arguments: game (the
# finished row, seats prefetched) and ranking (tuples of colours, best first; leavers
# last, the latest leaver above the earlier ones). The receivers run in a savepoint:
# one that raises is logged and its writes are undone, and the game still finishes.
game_finished = Signal()

# Sent after commit when who is at a game changed without a move: a player's pages all
# closed or one opened again (games.consumers), a gone player's seat given to the
# computer (games.endings). Argument: game_id.
seats_changed = Signal()

# Sent by games.turn_mail before a correspondence turn's mail goes out, inside the
# transaction that marks it sent. Arguments: game, user (the player to move). A
# receiver answers False to send nothing (its person opted out, or is told otherwise), or
# {"line": text to add at the end, "headers": the mail's headers to add (its
# unsubscribe link's), "language": the language to write it in}, or None.
turn_mail_sending = Signal()
