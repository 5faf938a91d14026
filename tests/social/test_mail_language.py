"""Mail comes in the language the person reads the site in: Bob signs in from a German
browser and his correspondence turn and challenges are mailed in German; he switches
the site to English and the next mail is English. Nothing else he does writes it."""
import pytest
from django.core import mail
from django.test import Client

from games import Variant
from games.access import Viewer
from games.models import Game
from games.creation import build_variant
from games.tasks import turn_mail
from lobby import actions
from social import challenges, preferences
from social.mail import send_if_away
from social.models import Notification, Preferences
from tests.lobby.browser_people import in_thread

# The tests send the mail themselves: a live worker would take the queued turn mail first.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_workers_paused")]


def signs_in(user, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    answer = client.post("/accounts/login/", {"username": user.username, "password": "a long enough passphrase"})
    assert answer.status_code == 302, answer.content.decode()[-2000:]
    return client


def bobs_turn_mail(alice, bob):
    """A correspondence table where Bob (Black) is to move: the mail of his turn."""
    table = in_thread(lambda: actions.open_table(alice, Variant(board="6x6"), host_colour="white",
                                                 time_control=(Game.TimeControl.DAYS, 86400, 0)))
    in_thread(actions.join, table, Viewer(user=bob))
    mail.outbox.clear()
    Game.objects.filter(pk=table.game_id).update(mailed_ply=None)
    assert turn_mail(table.game_id, 0)
    [message] = mail.outbox
    return message


def test_bob_reads_the_site_in_german_and_gets_his_mail_in_german_until_he_switches(alice, bob):
    browser = signs_in(bob, "de")
    assert Preferences.objects.get(user=bob).language == "de"

    message = bobs_turn_mail(alice, bob)
    assert message.subject == "Du bist am Zug: 6×6 · 2 Spieler"
    assert "Du bist in deiner Fernpartie am Zug (Schwarz)" in message.body
    assert "Keine solchen E-Mails mehr:" in message.body

    browser.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert Preferences.objects.get(user=bob).language == "en"
    message = bobs_turn_mail(alice, bob)
    assert message.subject == "Your turn: 6×6 · 2 players"
    assert "No more of these mails:" in message.body


def test_a_challenge_is_mailed_in_the_language_of_the_one_challenged(alice, bob):
    signs_in(bob, "de")
    preferences.save(bob, mail_challenges=True)
    challenges.send(alice, bob, build_variant(board="8x8", players=2),
                    time_control=(Game.TimeControl.MOVE, 0, 0), colour="black", rated=False)
    mail.outbox.clear()
    assert send_if_away(Notification.objects.get(user=bob).pk, "challenges")
    [message] = mail.outbox
    assert message.subject == "Alice fordert dich heraus: 8×8 · 2 Spieler"


def test_pages_and_actions_write_nothing_and_a_person_never_seen_gets_the_sites_language(alice, bob):
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(bob)  # signed in earlier, in another session
    assert client.get("/lobby/").status_code == 200
    started = client.post("/play/", {"board": "6x6", "players": "2", "level": "easy", "blocked": "0",
                                     "handicap": "0", "handicap_colour": "white"})
    assert started.status_code == 302  # an action, which must never wait for a write lock to note a language
    assert not Preferences.objects.filter(user=bob).exists()
    assert bobs_turn_mail(alice, bob).subject == "Your turn: 6×6 · 2 players"
