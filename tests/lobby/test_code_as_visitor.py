"""A visitor without an account finds the code form from the home page and the
header, sits at a table as a guest, and is told why a page needs an account."""
import pytest
from django.urls import reverse

from lobby import actions
from games import Variant
from tests.people import make_user

pytestmark = pytest.mark.django_db


def test_the_home_page_and_the_header_lead_a_visitor_to_the_code_form(client):
    page = client.get(reverse("home")).content.decode()
    assert f'action="{reverse("table_join")}"' in page and 'name="code"' in page
    assert f'href="{reverse("table_join")}"' in page  # the header's "Join with a code"


def test_a_visitor_types_a_code_and_sits_as_a_guest(client):
    table = actions.open_table(make_user("alice", "Alice"), Variant(board="6x6"))
    response = client.post(reverse("table_join"), {"code": table.code.lower()})
    assert response.status_code == 302 and response["Location"] == reverse("table", args=[table.code])
    page = client.get(response["Location"])
    assert page.context["guest_form"] is not None
    client.post(reverse("table_guest", args=[table.code]), {"name": "Gil", "seat": ""})
    assert table.game.seats.get(colour="white").guest_name == "Gil"


@pytest.mark.parametrize("url_name, reason", [("table_new", "Sign in to open a table.")])
def test_pages_that_need_an_account_say_why_and_point_to_the_code_form(client, url_name, reason):
    response = client.get(reverse(url_name), follow=True)
    html = response.content.decode()
    assert response.redirect_chain[-1][0].startswith(reverse("login"))
    assert reason in html and f'href="{reverse("table_join")}"' in html


def test_the_sign_in_page_reached_directly_gives_no_reason(client):
    assert 'id="sign-in-reason"' not in client.get(reverse("login")).content.decode()
    assert 'id="sign-in-reason"' not in client.get(reverse("login") + "?next=/nowhere/").content.decode()
