"""New Game leaves the old game abandoned (won by nobody), the games to continue
are told apart, and every result names the winner first and each score's colour."""
import re

import pytest
from django.urls import reverse

from games import Variant
from games.access import GUEST_TOKEN_KEY, Viewer
from games.models import Game
from games.presentation import score_sentence
from games.creation import create_computer_game
from games.services import play_move
from tests.people import make_user
from tests.play.helpers import FirstChoice

pytestmark = pytest.mark.django_db


def my_game(client, variant=None, level="easy"):
    session = client.session
    session[GUEST_TOKEN_KEY] = "token-of-this-browser"
    session.save()
    return create_computer_game(Viewer(guest_token="token-of-this-browser"), variant or Variant(),
                                level, rng=FirstChoice())


def test_new_game_ends_the_old_one_as_abandoned_and_nobody_wins_it(client):
    old = my_game(client)
    play_move(old, "d3", expected_ply=0, viewer=Viewer(guest_token="token-of-this-browser"))
    asked = client.post(reverse("play_again", args=[old.public_id]))  # a running game: asked first
    assert asked.status_code == 200 and "Leave this game?" in asked.content.decode()
    assert Game.objects.get(pk=old.pk).status == "playing" and Game.objects.count() == 1
    response = client.post(reverse("play_again", args=[old.public_id]), {"confirm": "1"})
    new = Game.objects.exclude(pk=old.pk).get()
    assert response["Location"] == reverse("play_game", args=[new.public_id])
    old.refresh_from_db()
    assert (old.status, old.ending, old.winner, old.turn) == ("finished", "abandoned", "", "")
    assert new.status == "playing"

    rows = {row["game"].pk: row for row in client.get(reverse("my_games")).context["rows"]}
    assert rows[old.pk]["outcome"] == "abandoned" and rows[old.pk]["outcome_label"] == "abandoned"
    for result in ("won", "lost", "draw"):
        assert old.pk not in [r["game"].pk for r in client.get(reverse("my_games"), {"result": result}).context["rows"]]
    review = client.get(reverse("review", args=[old.public_id])).content.decode()
    assert "Abandoned for a new game." in review
    page = client.get(reverse("play_game", args=[old.public_id])).content.decode()
    assert "Abandoned for a new game." in page and 'id="undo"' not in page
    undo = client.post(reverse("play_undo", args=[old.public_id]), {"ply": old.ply})
    old.refresh_from_db()
    assert undo.status_code == 302 and old.ending == "abandoned"


def test_new_game_from_a_finished_or_someone_elses_game_abandons_nothing(client):
    owner = make_user("olga")
    theirs = create_computer_game(Viewer(user=owner), Variant(), "easy", rng=FirstChoice())
    Game.objects.filter(pk=theirs.pk).update(is_public=True)
    client.post(reverse("play_again", args=[theirs.public_id]))
    theirs.refresh_from_db()
    assert theirs.status == "playing" and theirs.ending == ""


def test_games_to_continue_say_which_game_each_is(client):
    first = my_game(client, Variant(board="6x6"), level="easy")
    play_move(first, "c2", expected_ply=0, viewer=Viewer(guest_token="token-of-this-browser"))
    my_game(client, Variant(board="6x6"), level="hard")
    page = client.get(reverse("play")).content.decode()
    lines = [line for line in page.split("<li data-game=")[1:]]
    assert len(lines) == 2 and lines[0] != lines[1]
    assert any("Easy" in line and "you play Black" in line and "move 2" in line for line in lines)
    assert any("Hard" in line and "move 1" in line and "started" in line for line in lines)


@pytest.mark.parametrize("winner, score, colours, names, sentence", [
    ("white", {"black": 0, "white": 36}, ("black", "white"), None, "White wins 36–0: White 36, Black 0."),
    ("black", {"black": 21, "white": 17, "red": 17, "green": 9}, ("black", "white", "red", "green"), None,
     "Black wins: Black 21, White 17, Red 17, Green 9."),
    ("", {"black": 32, "white": 32}, ("black", "white"), {"black": "Alice", "white": "Computer"},
     "Draw, 32–32: Black (Alice) 32, White (Computer) 32."),
    ("red", {"black": 10, "white": 20, "red": 30}, ("black", "white", "red"), {"red": "Rita"},
     "Red wins: Red (Rita) 30, Black 10, White 20."),
])
def test_results_put_the_winner_first_and_give_every_score_its_colour(winner, score, colours, names, sentence):
    assert score_sentence(winner, score, colours, names) == sentence


def test_a_finished_game_names_its_players_in_the_result_and_its_reader_you(client):
    alice = make_user("alice", "Alice")
    game = create_computer_game(Viewer(user=alice), Variant(board="6x6"), "easy", rng=FirstChoice())
    Game.objects.filter(pk=game.pk).update(status="finished", ending="normal", winner="white",
                                           score={"black": 0, "white": 36}, turn="", is_public=True)
    html = client.get(reverse("review", args=[game.public_id])).content.decode()
    assert "White wins 36–0: White (Computer) 36, Black (Alice) 0." in html
    client.force_login(alice)  # the header says "Black: You", and so does the result
    html = client.get(reverse("review", args=[game.public_id])).content.decode()
    assert "White wins 36–0: White (Computer) 36, Black (You) 0." in html


def test_a_guest_reads_you_in_the_result_of_the_review(client):
    game = my_game(client, Variant(board="6x6"))
    Game.objects.filter(pk=game.pk).update(status="finished", ending="normal", winner="white",
                                           score={"black": 0, "white": 36}, turn="")
    html = client.get(reverse("review", args=[game.public_id])).content.decode()
    result = re.search(r'id="review-result">(.*?)</p>', html, re.S).group(1)
    assert "White wins 36–0: White (Computer) 36, Black (You) 0." in result and "Guest" not in result
