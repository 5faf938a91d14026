"""What the lobby tells the apps above it (social), which it never imports."""
from django.dispatch import Signal

# After the commit of a rematch's first acceptance: table, game (the finished one),
# asked_by (the accepting seat's user id, None for a guest) and others (the user ids
# of the other people still seated, who are asked).
rematch_asked = Signal()
