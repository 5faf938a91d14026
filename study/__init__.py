"""Studying games: opening names (openings.py) and the Othello world's formats
(formats/).  These modules are plain Python on top of games.rules, with no
Django, so they run in a bare interpreter, a worker or the command line
(``python -m study``)."""
