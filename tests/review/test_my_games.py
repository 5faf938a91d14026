"""My games: newest first, filtered by variant, result and opponent, paginated."""
import pytest

from accounts.models import Profile
from games import Variant
from games.models import Game
from tests.review.conftest import WIPEOUT, store_game

pytestmark = pytest.mark.django_db

SIX = "c2b4b5d2a4b1e1b2c1d1a1a6d5e4b3e2c5c6b6a2d6e6a3e3f1a5f4f2f3f5f6e5"  # Black wins


def listed(client, query=""):
    response = client.get("/games/" + query)
    assert response.status_code == 200
    return [row["game"].public_id for row in response.context["rows"]]


@pytest.fixture
def games(client, make_user):
    me, rival = make_user("me"), make_user("rival_rita")
    Profile.objects.update_or_create(user=rival, defaults={"display_name": "Margarita"})
    client.force_login(me)
    made = {
        "won_8x8": store_game(WIPEOUT, players=[me]),                           # I am Black: won
        "lost_6x6": store_game(SIX, Variant(board="6x6"), players=[rival, me], kind="table"),  # White: lost
        "blocked": store_game("f5", Variant(blocked=("b2", "g7")), players=[me], finished=False),
        "playing": store_game(WIPEOUT, players=[me], finished=False),
        "not_mine": store_game(WIPEOUT, players=[rival]),
    }
    # finished games whose moves do not matter here
    anti = Game.objects.create(variant=Variant(anti=True).to_dict(), status=Game.Status.FINISHED)
    anti.seats.create(colour="black", user=me)
    anti.seats.create(colour="white", is_computer=True)
    made["anti"] = anti
    draw = Game.objects.create(variant=Variant(players=3).to_dict(), status=Game.Status.FINISHED, winner="")
    draw.seats.create(colour="black", user=me)
    draw.seats.create(colour="white", guest_name="Gustav", guest_token="g")
    draw.seats.create(colour="red", is_computer=True)
    made["draw_3p"] = draw
    return {name: game.public_id for name, game in made.items()}


def test_newest_first_and_only_mine(client, games):
    ids = listed(client)
    assert games["not_mine"] not in ids
    assert ids == [games[n] for n in ("draw_3p", "anti", "playing", "blocked", "lost_6x6", "won_8x8")]


@pytest.mark.parametrize("query, expected", [
    ("?board=6x6", ["lost_6x6"]),
    ("?board=8x8&players=2", ["anti", "playing", "blocked", "won_8x8"]),
    ("?players=3", ["draw_3p"]),
    ("?option=anti", ["anti"]),
    ("?option=blocked", ["blocked"]),
    ("?option=standard&board=8x8", ["draw_3p", "playing", "won_8x8"]),
    ("?result=won", ["won_8x8"]),
    ("?result=lost", ["lost_6x6"]),
    ("?result=draw", ["draw_3p", "anti"]),
    ("?result=playing", ["playing", "blocked"]),
    ("?opponent=RITA", ["lost_6x6"]),
    ("?opponent=gust", ["draw_3p"]),
    ("?opponent=garit", ["lost_6x6"]),  # the display name, not the username
    ("?opponent=computer", ["draw_3p", "anti", "playing", "blocked", "won_8x8"]),
    ("?opponent=me", []),  # my own seat is not an opponent
    ("?board=nonsense", ["draw_3p", "anti", "playing", "blocked", "lost_6x6", "won_8x8"]),
])
def test_filters(client, games, query, expected):
    assert listed(client, query) == [games[name] for name in expected]


def test_rows_show_variant_opponents_result_and_links(client, games):
    html = client.get("/games/?board=6x6").content.decode()
    assert "6×6 · 2 players" in html and "Margarita" in html and "lost" in html and "Black 24, White 12" in html
    assert f'href="/games/{games["lost_6x6"]}/"' in html
    html = client.get("/games/?result=playing").content.decode()
    assert f'href="/play/{games["playing"]}/"' in html  # Continue


def test_pagination_keeps_the_filters(client, make_user):
    me = make_user("me")
    client.force_login(me)
    for _ in range(23):
        store_game(WIPEOUT, players=[me])
    store_game(WIPEOUT, players=[me], finished=False)
    first = client.get("/games/?result=won")
    assert len(first.context["rows"]) == 20
    html = first.content.decode()
    assert 'href="?result=won&amp;page=2"' in html
    assert len(client.get("/games/?result=won&page=2").context["rows"]) == 3


def test_a_guest_sees_the_games_of_their_session(client):
    session = client.session
    session["guest_token"] = "browser-1"
    session.save()
    game = store_game(WIPEOUT, players=["browser-1"])
    store_game(WIPEOUT, players=["browser-2"])
    assert listed(client) == [game.public_id]
    assert listed(client, "?result=won") == [game.public_id]


def test_a_game_i_left_reads_the_same_on_my_games_and_my_profile(client, make_user):
    me, rival = make_user("me"), make_user("rival_rita")
    client.force_login(me)
    game = Game.objects.create(variant=Variant().to_dict(), status=Game.Status.FINISHED, winner="black",
                               forfeited=["white"], kind="table")
    game.seats.create(colour="black", user=rival)
    game.seats.create(colour="white", user=me)
    mine = client.get("/games/").context["rows"]
    profile = client.get("/accounts/profile/").context["rows"]
    assert [row["outcome_label"] for row in mine] == [row["outcome_label"] for row in profile] == [
        "lost (left the table)"]
    assert mine[0]["opponents"] == profile[0]["opponents"] == ["rival_rita"]
