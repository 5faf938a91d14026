"""Offline tools around the computer players: the command line (``python -m games
play|solve``), the match runner, the training of the learned evaluation and of the
3-4 player weights.  The site never imports this package; ``games.ai`` outside it
is what the site runs."""
