"""The analysis service without a worker: every move weighed at Normal strength,
stored ply by ply exactly once, the worst mistakes found; asking again is safe."""
from datetime import timedelta

import pytest
from django.utils import timezone

from games import analysis
from games.charts import stone_chart
from games.models import Game, GameAnalysis, Move
from tests.review.conftest import PASS_GAME_6X6, PASS_PLY_6X6, WIPEOUT, WIPEOUT_BLUNDER_PLY, store_game

pytestmark = pytest.mark.django_db


def run_to_end(record):
    chunks = 1
    while analysis.run_chunk(record.pk):
        chunks += 1
    record.refresh_from_db()
    return chunks


def test_a_wipeout_blunder_is_found_and_marked(client):
    game = store_game(WIPEOUT, public=True)
    record, queued = analysis.request_analysis(game)
    assert queued and record.status == "queued" and record.total == 9
    run_to_end(record)
    assert record.status == "done" and record.done == 9 and len(record.entries) == 9
    blunder = record.entries[WIPEOUT_BLUNDER_PLY - 1]
    assert blunder["best"] in {"c7", "c5"} and blunder["loss"] > 30
    marked = analysis.worst_mistakes(record.entries)
    assert marked[0] == WIPEOUT_BLUNDER_PLY  # the worst, and the weak opening moves after it
    assert all(record.entries[ply - 1]["loss"] >= analysis.MISTAKE_THRESHOLD for ply in marked)
    html = client.get(f"/games/{game.public_id}/?ply={WIPEOUT_BLUNDER_PLY}").content.decode()
    assert 'class="move mistake" data-ply="8"' not in html  # the current row carries both classes
    assert 'class="move current mistake" data-ply="8"' in html
    assert "White lost " in html and " stones with this move; best was c" in html
    assert '<path class="mistake-mark" data-ply="8"' in html
    assert html.count("mistake-label") == len(marked) + 1  # in the position panel and in each marked row


def test_forced_moves_and_passes_are_not_weighed():
    from games import Variant

    game = store_game(PASS_GAME_6X6, Variant(board="6x6"), public=True)
    record, _ = analysis.request_analysis(game)
    run_to_end(record)
    assert record.entries[PASS_PLY_6X6 - 1] == {"forced": True}
    assert record.entries[-1] == {"forced": True}  # the last empty square: a single legal move
    assert all("loss" in e for i, e in enumerate(record.entries, 1) if not e.get("forced"))


def test_work_is_done_in_chunks_and_each_ply_written_once():
    game = store_game(WIPEOUT, public=True)
    record, _ = analysis.request_analysis(game)
    assert analysis.run_chunk(record.pk, budget=0) is True  # one ply, then hand over
    record.refresh_from_db()
    assert record.done == 1 and record.status == "running"
    # a second delivery of the same task and the next chunk share the work without repeating it
    while analysis.run_chunk(record.pk, budget=0):
        pass
    record.refresh_from_db()
    assert record.done == 9 and len(record.entries) == 9 and record.status == "done"
    assert analysis.run_chunk(record.pk) is False  # a late duplicate does nothing


def test_asking_again_does_not_restart_a_current_analysis():
    game = store_game(WIPEOUT, public=True)
    first, queued = analysis.request_analysis(game)
    again, queued_again = analysis.request_analysis(game)
    assert queued and not queued_again and again.pk == first.pk
    run_to_end(first)
    assert analysis.request_analysis(game)[1] is False
    assert GameAnalysis.objects.count() == 1


def test_a_stalled_or_stale_analysis_starts_again():
    game = store_game(WIPEOUT, public=True)
    record, _ = analysis.request_analysis(game)
    GameAnalysis.objects.filter(pk=record.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    record, queued = analysis.request_analysis(game)
    assert queued
    run_to_end(record)
    # the game changes afterwards (Undo of a finished computer game, then another ending)
    Move.objects.filter(game=game, ply=9).update(square="f2")
    summary = analysis.summary(record, analysis.history_of(game), [])
    assert summary["stale"] and not summary["complete"] and summary["entries"] == {}
    record, queued = analysis.request_analysis(game)
    assert queued and record.done == 0 and record.history.endswith("f2")


def test_only_finished_games_are_analysed(client):
    game = store_game(WIPEOUT, players=["guest"], finished=False)
    with pytest.raises(analysis.AnalysisRefused):
        analysis.request_analysis(game)
    session = client.session
    session["guest_token"] = "guest"
    session.save()
    response = client.post(f"/games/{game.public_id}/analysis/", {"ply": "3"}, headers={"HX-Request": "true"})
    assert response.status_code == 400 and "Only a finished game can be analysed." in response.content.decode()
    assert not GameAnalysis.objects.exists()


def test_anyone_who_may_see_a_finished_game_may_ask(client):
    game = store_game(WIPEOUT, public=True)
    response = client.post(f"/games/{game.public_id}/analysis/", {"ply": "3"}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200 and response["HX-Push-Url"] == "false"
    assert "Analysing… 0/9" in html and 'hx-trigger="every 2s"' in html and "Move 3 of 9" in html
    page = client.get(f"/games/{game.public_id}/").content.decode()
    assert 'http-equiv="refresh"' in page  # without JavaScript the page reloads itself meanwhile
    plain = client.post(f"/games/{game.public_id}/analysis/", {"ply": "5"})
    assert plain.status_code == 302 and plain["Location"] == f"/games/{game.public_id}/?ply=5"
    assert Game.objects.get(pk=game.pk).analysis.status == "queued"


def test_the_chart_is_plain_svg_with_one_line_per_colour():
    series = [{"black": 2, "white": 2}, {"black": 4, "white": 1}, {"black": 3, "white": 3}]
    svg = stone_chart(series, ("black", "white"), current=1, marks=[2])
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('<polyline class="series"') == 2
    assert 'data-ply="2"' in svg and "After move 1: Black 4, White 1." in svg
    assert "<script" not in svg


def test_the_computers_own_moves_are_not_judged(client):
    """The analysis searches no deeper than the computer plays: its moves would score
    about 0.0 against themselves, so the summary, the marks and the move list judge only
    the moves people made (the blunder at ply 8 is White's, a guest's)."""
    computer = {ply: Move.MadeBy.COMPUTER for ply in range(1, 10, 2)}
    game = store_game(WIPEOUT, players=[None, "guest"], made_by=computer)
    session = client.session
    session["guest_token"] = "guest"
    session.save()
    record, _ = analysis.request_analysis(game)
    run_to_end(record)
    html = client.get(f"/games/{game.public_id}/?ply=1").content.decode()
    assert "White: " in html and " stones lost per move" in html
    assert "Black: " not in html.split('class="analysis-averages"')[1].split("</p>")[0]
    assert "The computer's own moves are not judged" in html
    assert 'class="move current" data-ply="1"' in html  # the computer's move: no loss, no best
    first_row = html.split('<tr class="move current" data-ply="1"')[1].split("</tr>")[0]
    assert '<td class="loss"></td>' in first_row and '<td class="best"></td>' in first_row
    assert 'class="move mistake" data-ply="8"' in html
    assert "White lost " not in html and "Black lost " not in html  # ply 1 shows no judgement

    # the same moves made by the computer for a player out of time are no mistakes of anyone's
    Move.objects.filter(game=game, ply__in=[2, 4, 6, 8]).update(made_by=Move.MadeBy.TIMEOUT)
    html = client.get(f"/games/{game.public_id}/?ply=8").content.decode()
    assert "mistake-label" not in html and "White lost " not in html and "No serious mistakes." in html
