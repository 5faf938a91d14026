"""The test personas' accounts (the alice, bob and carol fixtures of tests/conftest.py
are made here) and a client signed in as one of them."""
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Profile


def make_user(username, display_name=""):
    user = get_user_model().objects.create_user(username, f"{username}@example.com", "a long enough passphrase")
    Profile.objects.create(user=user, display_name=display_name)
    return user


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client
