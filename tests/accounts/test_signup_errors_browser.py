"""Sign-up shows every error of the form at once (the server's, in the page's
language), not the browser's one field at a time."""
import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_every_error_at_once(live_site, page, bob):
    page.goto(f"{live_site.url}/accounts/signup/")
    page.get_by_label("Username").fill("bob")  # taken
    page.get_by_label("Email").fill("not-an-email")
    page.locator("#id_password1").fill("abc")
    page.locator("#id_password2").fill("abc")
    page.get_by_role("button", name="Create account").click()
    errors = page.locator(".errorlist")
    expect(errors.filter(has_text="A user with that username already exists.")).to_have_count(1)
    expect(errors.filter(has_text="Enter a valid email address.")).to_have_count(1)
    expect(errors.filter(has_text="This password is too short.")).to_have_count(1)
