"""A guest who signs up or signs in keeps the games they played as a guest.

Django's login() keeps the session's data when it rotates the key, so the guest
token is still there when user_logged_in is sent (by sign-up too, which logs in).
"""
from games.access import GUEST_TOKEN_KEY
from games.writer import claim_guest_seats


def claim_on_login(sender, request, user, **kwargs):
    if request is not None and hasattr(request, "session"):
        claim_guest_seats(user, request.session.get(GUEST_TOKEN_KEY, ""))
