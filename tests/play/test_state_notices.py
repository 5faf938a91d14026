"""What the live state says happened: passes stay until the player they concern
moves again; a move the computer made for a player out of time says so."""
from games.models import Move
from games.presentation import live_sentence, passes_while_waiting


def moves(*plays):
    return [Move(ply=ply, colour=colour, square=square, flips=["x"] if square != "pass" else [],
                 made_by=made_by) for ply, (colour, square, made_by) in enumerate(plays, start=1)]


def test_my_pass_is_still_shown_after_the_computers_answer():
    played = moves(("black", "d3", "player"), ("white", "c3", "computer"), ("black", "pass", "auto"),
                   ("white", "c5", "computer"))
    assert passes_while_waiting(played, "black") == [played[2]]


def test_the_computers_pass_is_shown_until_it_moves_again():
    played = moves(("black", "d3", "player"), ("white", "pass", "auto"), ("black", "e6", "player"),
                   ("white", "f4", "computer"))
    assert passes_while_waiting(played[:2], "black") == [played[1]]
    assert passes_while_waiting(played[:3], "white") == [played[1]]
    assert passes_while_waiting(played, "black") == []


def test_a_move_made_for_a_player_out_of_time_says_so():
    move = moves(("black", "d3", "timeout"))[0]
    assert live_sentence(move) == "Black ran out of time: the computer played d3 for them and flipped 1."
    assert live_sentence(moves(("black", "d3", "player"))[0]) == "Black played d3 and flipped 1."
