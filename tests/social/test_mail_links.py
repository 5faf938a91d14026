"""Every mail the site sends links to pages that open: the live site's servers get the
site's address as `make run` gives its parts (SITE_URL from HOST and PORT), and each
link of each mail (its text and its List-Unsubscribe header) is fetched from the live
site by the person the mail is for (signed in, but for the password reset): it answers
200, or redirects to a page that does, and changes nothing. The unsubscribe link asks
first; its button unsubscribes."""
import re
import time
import urllib.request
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from games import Variant
from games.access import Viewer
from games.models import Game
from games.creation import build_variant
from lobby import actions
from social import challenges, preferences, unsubscribe
from tests.http_session import Session
from tests.people import make_user, signed_in
from tests.servers import sent_mail

pytestmark = pytest.mark.django_db(transaction=True)


def mail_to(address, subject_part):
    return [m for m in sent_mail() if m["To"] == address and subject_part in m["Subject"]]


def one_mail(address, subject_part, seconds=15):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = mail_to(address, subject_part)
        if found:
            return found[-1]
        time.sleep(0.1)
    raise AssertionError(f"no mail to {address} about {subject_part!r}")


def links_of(message):
    body = message.get_content()
    headers = re.findall(r"<(https?://[^>]+)>", message.get("List-Unsubscribe", ""))
    return re.findall(r"https?://\S+", body) + headers


def opens(link, session=None):
    """The final answer's status and address, redirects followed (GET only: opening a
    link must change nothing)."""
    request = urllib.request.Request(link)
    if session is not None:
        request.add_header("Cookie", f"sessionid={session}")
    with urllib.request.urlopen(request, timeout=15) as answer:
        return answer.status, answer.url


def test_every_link_of_every_mail_opens_on_the_site(live_site):
    # Names of their own: the mail of the whole test run is kept in one place.
    alice, bob = make_user("linda", "Linda"), make_user("lukas", "Lukas")
    preferences.save(bob, mail_challenges=True)

    table = actions.open_table(alice, Variant(board="6x6"), time_control=(Game.TimeControl.DAYS, 86400, 0))
    actions.join(table, Viewer(user=bob))
    challenges.send(alice, bob, build_variant(board="8x8", players=2),
                    time_control=(Game.TimeControl.MOVE, 0, 0), colour="black", rated=False)
    visitor = Session(live_site.url)
    status, _headers, _body = visitor.post("/accounts/password/reset/", {"email": alice.email})
    assert status == 302

    mails = [(one_mail(alice.email, "Your turn"), signed_in(alice).cookies["sessionid"].value),
             (one_mail(bob.email, "challenges you"), signed_in(bob).cookies["sessionid"].value),
             (one_mail(alice.email, "assword"), None)]
    for message, session in mails:
        links = links_of(message)
        assert links, message
        for link in links:
            assert link.startswith(live_site.url + "/"), (message["Subject"], link)
            status, final = opens(link, session)
            assert status == 200 and final.startswith(live_site.url + "/"), (message["Subject"], link, final)
            assert urlsplit(final).path != "/", (message["Subject"], link)
    # Opening every link (as mail scanners do) unsubscribed nobody.
    assert preferences.of(alice).mail_your_turn and preferences.of(bob).mail_challenges


@pytest.mark.browser
def test_the_unsubscribe_link_asks_and_its_button_unsubscribes(live_site, page):
    alice = make_user("alice", "Alice")
    page.goto(live_site.url + urlsplit(unsubscribe.link(alice.pk, "turn")).path)
    expect(page.locator("#unsubscribe-form")).to_contain_text(
        "No more mail when it is your turn in a correspondence game?")
    assert preferences.of(alice).mail_your_turn
    page.locator("#unsubscribe-confirm").click()
    expect(page.locator("#unsubscribed")).to_contain_text("You get no more mail when it is your turn")
    assert not preferences.of(alice).mail_your_turn
