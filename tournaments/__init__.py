"""Tournaments: Swiss, round-robin, arena and table events played as ordinary games.

`tournaments.pairing` is the pure part (who plays whom, and the standings), free of
Django so that a Celery worker or a test runs it without the site.
"""
