"""The infrastructure below the apps: what games, lobby, accounts, social and chat
share that is no concept of theirs. Redis' clients and what Redis being away looks
like, one object per event loop, group sends from synchronous code, websocket frames
framed once, a least-recently-used mapping, the address a request came from, the
bounded wait of every write for the database's locks, the site's address in mail.

It imports none of the apps and not config (tests/site/test_import_direction.py):
Django, Channels, Redis and kombu only.
"""
