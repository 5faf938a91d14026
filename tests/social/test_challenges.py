"""Challenges between people, told as stories: sent, accepted (both seated at the
started game), declined, cancelled, lapsed, refused (blocked, twice, too many, a board
not taken), raced, and hostile text shown as text."""
import re
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from games import endings
from games.access import Viewer
from games.models import Game
from games.creation import build_variant
from lobby.models import Table
from social import challenges, preferences, relations
from social.models import Challenge, Notification
from tests.people import make_user, signed_in

EIGHT = build_variant(board="8x8", players=2)
MOVE = (Game.TimeControl.MOVE, 0, 0)


def challenge(a, b, **kw):
    return challenges.send(a, b, kw.pop("variant", EIGHT), time_control=kw.pop("time_control", MOVE),
                           colour=kw.pop("colour", "black"), rated=kw.pop("rated", False))


@pytest.mark.django_db
def test_bob_accepts_alices_challenge_and_both_sit_at_the_started_game(alice, bob):
    sent = challenge(alice, bob, colour="white", rated=True)
    assert Notification.objects.get(user=bob).kind == Notification.Kind.CHALLENGE
    accepted = challenges.accept(sent.pk, bob)
    table = Table.objects.get(code=accepted.table_code)
    game = Game.objects.get(pk=table.game_id)
    assert game.status == Game.Status.PLAYING and game.rated
    assert {s.colour: s.user_id for s in game.seats.all()} == {"white": alice.pk, "black": bob.pk}
    assert table.host_id == alice.pk
    answer = Notification.objects.get(user=alice)
    assert answer.kind == Notification.Kind.CHALLENGE_ANSWER and answer.url == reverse("social:challenge",
                                                                                        args=[sent.pk])


@pytest.mark.django_db
def test_a_declined_challenge_cannot_be_accepted_afterwards(alice, bob):
    sent = challenge(alice, bob)
    challenges.decline(sent.pk, bob)
    with pytest.raises(challenges.ChallengeError, match="declined"):
        challenges.accept(sent.pk, bob)
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_a_challenge_nobody_answers_lapses_after_ten_minutes_and_correspondence_after_three_days(alice, bob, carol):
    quick = challenge(alice, bob)
    slow = challenge(alice, carol, time_control=(Game.TimeControl.DAYS, 2 * 86400, 0))
    assert quick.expires_at - quick.created_at == pytest.approx(timedelta(minutes=10), abs=timedelta(seconds=2))
    assert slow.expires_at - slow.created_at == pytest.approx(timedelta(days=3), abs=timedelta(seconds=2))
    later = timezone.now() + timedelta(minutes=11)
    assert challenges.lapse_due(later) == 1
    assert challenges.lapse_due(later) == 0  # told once
    assert Challenge.objects.get(pk=quick.pk).status == Challenge.Status.LAPSED
    assert Challenge.objects.get(pk=slow.pk).status == Challenge.Status.OPEN
    with pytest.raises(challenges.ChallengeError, match="lapsed"):
        challenges.accept(quick.pk, bob)


@pytest.mark.django_db
def test_a_challenge_past_its_time_is_refused_before_the_lapse_task_runs(alice, bob):
    sent = challenge(alice, bob)
    Challenge.objects.filter(pk=sent.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(challenges.ChallengeError, match="lapsed"):
        challenges.accept(sent.pk, bob)


@pytest.mark.django_db
def test_the_challenger_cancels_and_nobody_else_can(alice, bob):
    sent = challenge(alice, bob)
    with pytest.raises(challenges.ChallengeError):
        challenges.cancel(sent.pk, bob)
    challenges.cancel(sent.pk, alice)
    with pytest.raises(challenges.ChallengeError, match="cancelled"):
        challenges.accept(sent.pk, bob)


@pytest.mark.django_db
def test_a_blocked_player_cannot_challenge_either_way(alice, bob):
    relations.block(bob, alice)
    with pytest.raises(challenges.ChallengeError, match="cannot challenge"):
        challenge(alice, bob)
    with pytest.raises(challenges.ChallengeError, match="cannot challenge"):
        challenge(bob, alice)
    assert not Challenge.objects.exists()
    assert relations.is_blocked(alice, bob) and relations.is_blocked(bob.pk, alice.pk)
    relations.unblock(bob, alice)
    assert not relations.is_blocked(alice, bob)


@pytest.mark.django_db
def test_one_open_challenge_between_two_people_and_none_while_they_play_one(alice, bob):
    sent = challenge(alice, bob)
    with pytest.raises(challenges.ChallengeError, match="already waiting"):
        challenge(bob, alice)
    challenges.accept(sent.pk, bob)
    with pytest.raises(challenges.ChallengeError, match="already playing"):
        challenge(alice, bob)


@pytest.mark.django_db
def test_at_most_ten_open_challenges_per_person(alice):
    people = [make_user(f"p{i}") for i in range(11)]
    for person in people[:10]:
        challenge(alice, person)
    with pytest.raises(challenges.ChallengeError, match="10 challenges"):
        challenge(alice, people[10])
    assert Challenge.objects.count() == 10


@pytest.mark.django_db
def test_a_board_the_challenged_does_not_take_is_refused(alice, bob):
    preferences.save(bob, challenge_boards=["8x8"])
    with pytest.raises(challenges.ChallengeError, match="no challenges on this board"):
        challenge(alice, bob, variant=build_variant(board="10x10", players=2))
    challenge(alice, bob)


@pytest.mark.django_db(transaction=True)
def test_two_accepts_of_one_challenge_make_one_game(alice, bob):
    sent = challenge(alice, bob)
    barrier = threading.Barrier(2)
    results, errors = [], []

    def press():
        try:
            barrier.wait()
            results.append(challenges.accept(sent.pk, bob))
        except challenges.ChallengeError as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=press) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 1 and len(errors) == 1
    assert Table.objects.count() == 1 and Game.objects.count() == 1


@pytest.mark.django_db
def test_the_form_refuses_in_place_in_german_and_changes_nothing(alice, bob):
    relations.block(bob, alice)
    client = signed_in(alice)
    answer = client.post(reverse("social:challenge_new", args=["bob"]), {"board": "8x8", "time": "move",
                                                                         "colour": "random"},
                         HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 400
    assert "kannst Bob nicht herausfordern" in answer.content.decode()
    assert not Challenge.objects.exists()


@pytest.mark.django_db
def test_the_forms_time_choices_speak_the_page_s_language_with_plural_days(alice, bob):
    def options(language):
        html = signed_in(alice).get(reverse("social:challenge_new", args=["bob"]),
                                    HTTP_ACCEPT_LANGUAGE=language).content.decode()
        select = html.split('name="time"', 1)[1].split("</select>", 1)[0]
        return [text.strip() for text in re.findall(r"<option[^>]*>([^<]*)</option>", select)]

    english = options("en")
    assert english[:2] == ["60 seconds a move", "Clock 1+1"]
    assert english[-4:] == ["Correspondence, 1 day a move", "Correspondence, 2 days a move",
                            "Correspondence, 3 days a move", "Correspondence, 7 days a move"]
    german = options("de")
    assert german[:2] == ["60 Sekunden pro Zug", "Uhr 1+1"]
    assert german[-4:] == ["Fernpartie, 1 Tag pro Zug", "Fernpartie, 2 Tage pro Zug",
                           "Fernpartie, 3 Tage pro Zug", "Fernpartie, 7 Tage pro Zug"]
    assert options("en") == english  # each page in its own language, whatever the one before


@pytest.mark.django_db
def test_script_in_challenge_fields_and_names_is_shown_as_text(alice):
    villain = make_user("villain", "<script>alert(1)</script>")
    client = signed_in(villain)
    answer = client.post(reverse("social:challenge_new", args=["alice"]),
                         {"board": "<script>x</script>", "time": "<img src=x onerror=alert(1)>", "colour": "black"})
    assert answer.status_code == 400
    assert "<script>x" not in answer.content.decode() and "<img src=x" not in answer.content.decode()
    answer = client.post(reverse("social:challenge_new", args=["alice"]),
                         {"board": "8x8", "time": "move", "colour": "black"})
    assert answer.status_code == 302
    page = signed_in(alice).get(reverse("social:notifications")).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; challenges you" in page
    assert "<script>alert(1)" not in page


@pytest.mark.django_db
def test_accept_and_decline_over_http_answer_in_place(alice, bob):
    sent = challenge(alice, bob)
    client = signed_in(bob)
    answer = client.post(reverse("social:accept", args=[sent.pk]), HTTP_HX_REQUEST="true")
    assert answer.status_code == 204
    code = Challenge.objects.get(pk=sent.pk).table_code
    assert answer["HX-Redirect"] == reverse("table", args=[code])
    twice = client.post(reverse("social:accept", args=[sent.pk]), HTTP_HX_REQUEST="true")
    assert twice.status_code == 204 and twice["HX-Redirect"] == answer["HX-Redirect"]  # a double click
    again = client.post(reverse("social:decline", args=[sent.pk]), HTTP_HX_REQUEST="true")
    assert again.status_code == 409 and "accepted already" in again.content.decode()
    assert signed_in(carol := make_user("carol2")).post(reverse("social:accept", args=[sent.pk])).status_code == 302
    assert carol and Challenge.objects.get(pk=sent.pk).status == Challenge.Status.ACCEPTED


@pytest.mark.django_db
def test_played_challenges_do_not_count_against_the_limit_to_one_person_but_unwanted_ones_do(alice, bob):
    for _ in range(challenges.PER_HOUR_TO_ONE + 1):  # friends play game after game
        accepted = challenges.accept(challenge(alice, bob).pk, bob)
        endings.resign(Game.objects.get(pk=accepted.game_id), Viewer(user=bob))
    challenges.decline(challenge(alice, bob).pk, bob)
    challenges.decline(challenge(alice, bob).pk, bob)
    challenge(alice, bob)
    assert challenges.lapse_due(timezone.now() + challenges.LAPSE_AFTER + timedelta(seconds=1)) == 1
    with pytest.raises(challenges.ChallengeError, match="too often"):
        challenge(alice, bob)  # two declined and one lapsed within the hour


@pytest.mark.django_db
def test_sending_and_cancelling_is_no_way_to_flood_someones_header(alice, bob):
    for _ in range(challenges.PER_HOUR_TO_ONE):
        challenges.cancel(challenge(alice, bob).pk, alice)
    with pytest.raises(challenges.ChallengeError, match="too often"):
        challenge(alice, bob)
    assert Notification.objects.filter(user=bob).count() == challenges.PER_HOUR_TO_ONE
