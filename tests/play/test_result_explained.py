"""The result explains a score that is not the stone count (docs/rules.md §4, §4.1)."""
from django.utils import translation

from games import Board, Variant
from games.presentation import empty_squares_note


def test_a_game_decided_early_against_the_stones_says_it_is_the_smallest_win():
    text = "\n".join(["X" * 8] * 7 + ["O" + "." * 7])  # Black, who loses on time, holds 56
    outcome = Board.parse(text, Variant()).decided(loser="black")
    with translation.override("en"):
        note = empty_squares_note(outcome.winner, outcome.score, outcome.counts)
    assert note == "Ended early against the stones: scored as the smallest win."
    with translation.override("de"):
        assert "knappster Sieg" in empty_squares_note(outcome.winner, outcome.score, outcome.counts)


def test_a_game_decided_early_otherwise_gives_the_winner_the_empty_squares():
    board = Board()
    board.push("d3")
    outcome = board.decided(loser="white")  # Black 4, White 1: Black takes the 59 empties
    with translation.override("en"):
        assert empty_squares_note(outcome.winner, outcome.score, outcome.counts) == \
            "59 empty squares count for the winner."
