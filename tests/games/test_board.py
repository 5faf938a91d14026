"""Board: start positions, moves, passes, endings, scoring, text and records."""

import random

import pytest

from games import Board, IllegalMoveError, Variant


def test_public_api_example():
    v = Variant(board="octagon", players=3, anti=False, free_opening=False,
                blocked=("c5", "h6"), handicap=0, handicap_colour="white")
    b = Board(v)
    assert b.turn == "black"
    assert b.legal_moves == ["d5", "d7", "f7"]
    b.push("d5")  # brackets the neutral stone e5 against f5
    assert b.turn == "white"
    assert b.stones() == {"d5": "black", "e5": "black", "f5": "black", "e6": "red", "f6": "white"}
    assert b.pop() == "d5"
    assert b.outcome() is None and not b.is_game_over()


@pytest.mark.parametrize(
    "board,black,white",
    [("6x6", {"d3", "c4"}, {"c3", "d4"}), ("8x8", {"e4", "d5"}, {"d4", "e5"}),
     ("10x10", {"f5", "e6"}, {"e5", "f6"}), ("octagon", {"f5", "e6"}, {"e5", "f6"})],
)
def test_two_player_start(board, black, white):
    stones = Board(Variant(board=board)).stones()
    assert {s for s, c in stones.items() if c == "black"} == black
    assert {s for s, c in stones.items() if c == "white"} == white


def test_standard_first_moves_and_flip():
    b = Board()
    assert b.legal_moves == ["d3", "c4", "f5", "e6"]
    assert b.flips("d3") == ["d4"]
    b.push("d3")
    assert b.stones()["d4"] == "black" and b.last_flips == ["d4"]
    assert b.legal_moves == ["c3", "e3", "c5"]


@pytest.mark.parametrize(
    "players,board,expected",
    [
        (3, "8x8", {"e4": "black", "e5": "white", "d5": "red", "d4": "neutral"}),
        (4, "8x8", {"e4": "black", "e5": "white", "d5": "red", "d4": "green"}),
        (4, "10x10", {"f5": "black", "f6": "white", "e6": "red", "e5": "green"}),
        (3, "octagon", {"f5": "black", "f6": "white", "e6": "red", "e5": "neutral"}),
    ],
)
def test_multi_player_start(players, board, expected):
    b = Board(Variant(board=board, players=players))
    assert b.stones() == expected
    assert [b.turn for _ in range(1)] == ["black"]


def test_multi_player_turn_order_is_clockwise():
    b = Board(Variant(players=4))
    seen = []
    for _ in range(8):
        seen.append(b.turn)
        b.push(b.legal_moves[0])
    assert seen == ["black", "white", "red", "green"] * 2


def test_mixed_line_of_opponents_flips_completely():
    rows = ["........"] * 8
    rows[4] = ".XRON..."  # black b5, red c5, white d5, neutral e5
    b = Board.parse("\n".join(rows), Variant(players=3), turn="black")
    assert b.flips("f5") == ["c5", "d5", "e5"]
    b.push("f5")
    assert [b.stones()[s] for s in ("b5", "c5", "d5", "e5", "f5")] == ["black"] * 5


def test_fallback_placement_when_no_flip_exists():
    # red has no stone at all: it places next to any stone and flips nothing
    text = """
        ........
        ........
        ........
        ...XO...
        ...OX...
        ........
        ........
        ........
    """
    b = Board.parse(text, Variant(players=3), turn="red")
    moves = b.legal_moves
    assert moves == ["c3", "d3", "e3", "f3", "c4", "f4", "c5", "f5", "c6", "d6", "e6", "f6"]
    with pytest.raises(IllegalMoveError, match="touches no stone"):
        b.push("a1")
    b.push("f6")
    assert b.last_flips == [] and b.stones()["f6"] == "red"


def test_flipping_moves_take_precedence_over_placement():
    b = Board(Variant(players=3))
    with pytest.raises(IllegalMoveError, match="brackets no line"):
        b.push("f3")  # touches e4 but flips nothing, and black has flipping moves


def test_illegal_moves_leave_the_board_unchanged():
    b = Board()
    b.push("d3")
    before = (b.position_key(), b.history, b.legal_moves)
    for bad in ("a1", "d3", "z9", "k1", "", "pass", "d4", None, "e9"):
        with pytest.raises(IllegalMoveError):
            b.push(bad)
        assert (b.position_key(), b.history, b.legal_moves) == before
    assert issubclass(IllegalMoveError, ValueError)


def test_an_illegal_move_says_which_rule_it_breaks():
    """Each refusal carries the rule as a code (for a translated message) beside
    its English text, and leaves the board as it was."""
    over = Board.parse(FORCED_PASS, turn="white")
    over.push("pass")
    over.push("h7")
    red_without_stones = Board.parse("""
        ........
        ........
        ........
        ...XO...
        ...OX...
        ........
        ........
        ........
    """, Variant(players=3), turn="red")
    cases = [
        (Board(), None, "unreadable"),
        (Board(), "z9", "not-a-square"),
        (Board(), "k1", "not-a-square"),
        (Board(Variant(board="octagon")), "a1", "removed"),
        (Board(Variant(blocked=("e1", "d8"))), "d8", "removed"),
        (Board(), "d4", "occupied"),
        (Board(), "a1", "no-flips"),
        (Board(Variant(players=3)), "f3", "no-flips"),
        (red_without_stones, "a1", "not-adjacent"),
        (Board(Variant(free_opening=True)), "c3", "not-centre"),
        (Board(), "pass", "may-not-pass"),
        (Board.parse(FORCED_PASS, turn="white"), "h7", "must-pass"),
        (over, "pass", "game-over"),
        (over, "a1", "game-over"),
    ]
    for board, move, reason in cases:
        before = (board.position_key(), board.history)
        with pytest.raises(IllegalMoveError) as info:
            board.push(move)
        assert info.value.reason == reason, (move, str(info.value))
        assert (board.position_key(), board.history) == before
    assert {reason for _, _, reason in cases} == set(IllegalMoveError.REASONS)


def test_an_illegal_move_in_a_transcript_keeps_its_reason():
    def refusal(variant, transcript):
        with pytest.raises(IllegalMoveError) as info:
            Board.from_transcript(variant, transcript)
        return info.value.number, info.value.move, info.value.reason

    assert refusal(Variant(), "f5d6c3a1") == (4, "a1", "no-flips")
    assert refusal(Variant(), "f5f5") == (2, "f5", "occupied")
    assert refusal(Variant(), "f5 pass d6") == (2, "pass", "may-not-pass")
    assert refusal(Variant(), "f5d6x9") == (3, None, "unreadable")
    assert refusal(Variant(), "j10") == (1, "j10", "not-a-square")
    assert refusal(Variant(board="octagon"), "a1") == (1, "a1", "removed")
    assert refusal(Variant(free_opening=True), "c3") == (1, "c3", "not-centre")


def test_pop_undoes_back_to_the_start_only():
    b = Board()
    start = b.copy()
    for m in ("f5", "d6", "c3"):
        b.push(m)
    assert b.ply == 3 and b.history == ("f5", "d6", "c3")
    assert [b.pop(), b.pop(), b.pop()] == ["c3", "d6", "f5"]
    assert b == start and b.ply == 0
    with pytest.raises(IndexError):
        b.pop()


FORCED_PASS = """
    XXXXXXXX
    XXXXXXXX
    XXXXXXXX
    XXXXXXXX
    XXXXXXXX
    XXXXXXX.
    XXXXXXO.
    XXXXXXXX
"""


def test_forced_pass_and_end_when_nobody_can_move():
    b = Board.parse(FORCED_PASS, turn="white")
    assert b.legal_moves == ["pass"] and b.must_pass()
    with pytest.raises(IllegalMoveError, match="must pass"):
        b.push("h7")
    b.push("pass")
    assert b.turn == "black" and b.legal_moves == ["h6", "h7"]
    with pytest.raises(IllegalMoveError, match="may not pass"):
        b.push("pass")
    b.push("h7")
    assert b.is_game_over() and b.legal_moves == []
    o = b.outcome()
    assert (o.winner, o.counts, o.score, o.termination) == (
        "black", {"black": 63, "white": 0}, {"black": 64, "white": 0}, "no_moves")
    with pytest.raises(IllegalMoveError, match="game is over"):
        b.push("pass")
    assert b.history == ("pass", "h7")


def test_two_player_game_ends_when_a_side_is_wiped_out():
    b = Board.from_transcript(Variant(), "f5d6c5f4e7f6g5e6e3")
    assert b.is_game_over()
    o = b.outcome()
    assert o.winner == "black" and o.counts == {"black": 13, "white": 0}
    assert o.score == {"black": 64, "white": 0}  # the empties go to the winner
    assert o.termination == "no_moves"


def test_draw_score_is_half_the_playable_squares():
    text = "\n".join(["XXXXXXXX"] * 4 + ["OOOOOOOO"] * 4)
    o = Board.parse(text).outcome()
    assert o.winner is None and o.score == {"black": 32, "white": 32} and o.termination == "board_full"
    v = Variant(blocked=("a1", "h8"))
    text = "#XXXXXXX\n" + "\n".join(["XXXXXXXX"] * 2 + ["XXXXXXX."] + ["O.OOOOOO"] + ["OOOOOOOO"] * 2) + "\nOOOOOOO#"
    b = Board.parse(text, v)
    assert b.counts() == {"black": 30, "white": 30}
    o = b.outcome()
    assert o.winner is None and o.score == {"black": 31, "white": 31} and o.termination == "no_moves"


def test_anti_scores_stones_as_they_stand():
    b = Board.from_transcript(Variant(anti=True), "f5d6c5f4e7f6g5e6e3")
    o = b.outcome()
    assert o.winner == "white" and o.score == o.counts == {"black": 13, "white": 0}


def test_multi_player_outcomes():
    rows = ["XXXXXXXX", "XXXXXXXX", "OOOOOOOO", "OOOONOOO", "RRRRRRRR", "RRRRRRRR", "RRRRXXXX", "XXXXXXXX"]
    b = Board.parse("\n".join(rows), Variant(players=3))
    o = b.outcome()
    assert o.counts == {"black": 28, "white": 15, "red": 20}
    assert o.winner == "black" and o.score == o.counts and o.termination == "board_full"
    assert o.ranking == (("black",), ("red",), ("white",))
    anti = Board.parse("\n".join(rows), Variant(players=3, anti=True)).outcome()
    assert anti.winner == "white" and anti.ranking == (("white",), ("red",), ("black",))
    rows[1] = "XXXXRRRR"  # black 24, red 24: a shared top is a draw for the whole table
    o = Board.parse("\n".join(rows), Variant(players=3)).outcome()
    assert o.counts == {"black": 24, "white": 15, "red": 24}
    assert o.winner is None and o.ranking == (("black", "red"), ("white",))


def test_multi_player_shared_top_is_a_draw_for_the_table():
    rows = ["XXXXXXXX", "XXXXXXXX", "OOOOOOOO", "OOOOOOOO", "RRRRRRRR", "RRRRRRRR", "GGGGGGGG", "GGGGGGGG"]
    o = Board.parse("\n".join(rows), Variant(players=4)).outcome()
    assert o.winner is None and o.ranking == (("black", "white", "red", "green"),)
    rows[7] = "GGGGGGGX"
    o = Board.parse("\n".join(rows), Variant(players=4)).outcome()
    assert o.winner == "black" and o.ranking == (("black",), ("white", "red"), ("green",))
    rows[3] = "OOOOOOOX"  # black 18, white 15, red 16, green 15
    rows[5] = "RRRRRRRX"
    rows[7] = "GGGGGGGG"
    rows[0] = "XXXXXXXG"
    o = Board.parse("\n".join(rows), Variant(players=4, anti=True)).outcome()
    assert o.counts == {"black": 17, "white": 15, "red": 15, "green": 17}
    assert o.winner is None and o.ranking[0] == ("white", "red")


# a1 and h8 fenced off by blocked squares: b1 a2 b2 and their twins g8 h7 g7
FENCED = Variant(players=3, blocked=("b1", "a2", "b2", "g7", "h7", "g8"))
FENCED_ROWS = [".#XXXXXX", "##XXXXXX", "XXXXXXXX", "XXXNOOOO", "OOOOOOOO", "RRRRRRRR", "RRRRRR##", "RRRRRR#."]


def test_multi_player_game_ends_when_empties_are_cut_off():
    b = Board.parse("\n".join(FENCED_ROWS), FENCED)
    assert b.is_game_over() and b.legal_moves == []
    o = b.outcome()
    assert o.termination == "cut_off" and o.counts == {"black": 23, "white": 12, "red": 20}
    assert o.score == o.counts and o.winner == "black"
    rows = list(FENCED_ROWS)
    rows[2] = "XXXXXXX."  # an empty square that touches stones: play goes on
    b = Board.parse("\n".join(rows), FENCED, turn="white")
    assert b.legal_moves == ["h3"] and not b.is_game_over()


def test_two_player_game_with_cut_off_empties():
    v = Variant(blocked=FENCED.blocked)
    rows = [r.replace("N", "X").replace("R", "O") for r in FENCED_ROWS]
    o = Board.parse("\n".join(rows), v).outcome()
    assert o.termination == "no_moves" and o.counts == {"black": 24, "white": 32}
    assert o.score == {"black": 24, "white": 34} and o.winner == "white"


def test_free_opening():
    b = Board(Variant(free_opening=True))
    assert b.stones() == {}
    assert b.legal_moves == ["d4", "e4", "d5", "e5"]
    with pytest.raises(IllegalMoveError, match="central squares"):
        b.push("c3")
    for move, colour in (("d4", "black"), ("e5", "white"), ("e4", "black")):
        b.push(move)
        assert b.stones()[move] == colour and b.last_flips == []
    assert b.legal_moves == ["d5"]
    b.push("d5")
    assert b.stones() == {"d4": "black", "e4": "black", "d5": "white", "e5": "white"}
    assert b.turn == "black" and b.legal_moves == ["c6", "d6", "e6", "f6"]
    b.push("d6")
    assert b.last_flips == ["d5"]


@pytest.mark.parametrize("count,colour", [(1, "white"), (2, "black"), (4, "white")])
def test_corner_handicap_order(count, colour):
    b = Board(Variant(handicap=count, handicap_colour=colour))
    corners = [s for s in ("a1", "h8", "h1", "a8") if s in b.stones()]
    assert corners == ["a1", "h8", "h1", "a8"][:count]
    assert all(b.stones()[s] == colour for s in corners)
    assert b.turn == "black"
    b6 = Board(Variant(board="6x6", handicap=3))
    assert [s for s in ("a1", "f6", "f1", "a6") if s in b6.stones()] == ["a1", "f6", "f1"]


def test_octagon_edges_beside_the_cuts_can_never_be_flipped():
    g = Variant(board="octagon").geometry
    safe = ["c1", "a3", "h1", "j3", "a8", "c10", "j8", "h10"]
    for name in safe:
        c, r = g.cell(g.square_index(name))
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            ends = [(c + dc, r + dr), (c - dc, r - dr)]
            playable = [0 <= x < 10 and 0 <= y < 10 and g.playable >> g.cell_index(x, y) & 1 for x, y in ends]
            assert not all(playable), (name, dc, dr)  # no line passes through it


def test_octagon_b2_can_be_flipped_along_its_diagonal():
    rows = ["##......##", "#O.......#", "X........."] + [".........."] * 5 + ["#........#", "##......##"]
    b = Board.parse("\n".join(rows), Variant(board="octagon"), turn="black")
    assert b.legal_moves == ["c1"] and b.flips("c1") == ["b2"]
    b.push("c1")
    assert b.stones()["b2"] == "black"


def test_render_and_parse_round_trip():
    v = Variant.with_random_blocked(4, seed=11, board="octagon", players=4)
    b = Board(v)
    for _ in range(15):
        b.push(b.legal_moves[-1])
    for coordinates in (False, True):
        text = b.render(coordinates=coordinates)
        again = Board.parse(text, v, turn=b.turn)
        assert again == b and again.stones() == b.stones()
    assert "#" in b.render() and str(b).splitlines()[0].split() == list("abcdefghij")
    with pytest.raises(ValueError):
        Board.parse(b.render().replace("#", ".", 1), v)
    with pytest.raises(ValueError):
        Board.parse("XO", v)
    # lower case is accepted, and a row of green stones is not mistaken for the header
    rows = ["gggggggg"] + ["........"] * 6 + ["xxxxxxxx"]
    assert Board.parse("\n".join(rows), Variant(players=4)).counts() == {"black": 8, "white": 0, "red": 0, "green": 8}


def test_transcripts_round_trip_and_accept_passes_and_separators():
    b = Board()
    for m in ("f5", "d6", "c3", "d3", "c4"):
        b.push(m)
    assert b.transcript() == "f5d6c3d3c4"
    for text in ("f5d6c3d3c4", "F5 D6 C3 D3 C4", "1. f5 d6 2. c3 d3 3. c4", "f5,d6;c3-d3 c4"):
        assert Board.from_transcript(Variant(), text) == b
    big = Board(Variant(board="10x10"))
    while big.legal_moves and big.ply < 60:
        big.push(big.legal_moves[-1])
    assert "10" in big.transcript()
    again = Board.from_transcript(Variant(board="10x10"), big.transcript())
    assert again.history == big.history


def test_transcript_reinserts_passes():
    rng = random.Random(3)
    games = []
    for _ in range(200):
        g = Board(Variant(board="6x6"))
        while g.legal_moves:
            g.push(rng.choice(g.legal_moves))
        games.append(g)
    with_pass = [g for g in games if "pass" in g.history]
    assert with_pass
    for g in with_pass[:10]:
        replay = Board.from_transcript(Variant(board="6x6"), g.transcript())
        assert replay.history == g.history and replay == g
        assert Board.from_transcript(Variant(board="6x6"), " ".join(g.history)).history == g.history
    # a trailing pass is re-inserted too: the replay stops where a real choice is due
    g = next(g for g in with_pass if g.history[-1] != "pass")
    cut = g.history.index("pass")
    replay = Board.from_transcript(Variant(board="6x6"), "".join(g.history[:cut]))
    assert replay.history == g.history[: cut + 1] and replay.legal_moves != ["pass"]


def test_transcript_errors_name_the_move():
    with pytest.raises(IllegalMoveError) as info:
        Board.from_transcript(Variant(), "f5d6c3a1")
    assert "move 4 (a1)" in str(info.value) and info.value.number == 4 and info.value.move == "a1"
    with pytest.raises(IllegalMoveError, match="move 2") as info:
        Board.from_transcript(Variant(), "f5 pass d6")
    with pytest.raises(IllegalMoveError, match="move 3: cannot read") as info:
        Board.from_transcript(Variant(), "f5d6x9")
    assert info.value.number == 3
    with pytest.raises(IllegalMoveError, match="move 1 \\(j10\\)"):
        Board.from_transcript(Variant(), "j10")


def test_copy_hash_and_equality():
    b = Board()
    b.push("f5")
    c = b.copy()
    assert c == b and hash(c) == hash(b) and c.history == b.history
    c.push("d6")
    assert c != b and b.ply == 1
    d = Board.from_transcript(Variant(), "f5")
    assert d == b and len({b, d}) == 1
    assert b != Board(Variant(anti=True)) and Board() != Board(Variant(anti=True))
    assert b.copy(history=False).ply == 0


def test_a_game_decided_early_gives_the_winner_the_empty_squares():
    b = Board()
    b.push("d3")  # black 4, white 1
    o = b.decided(loser="white")
    assert o.winner == "black" and o.counts == {"black": 4, "white": 1}
    assert o.score == {"black": 63, "white": 1}
    assert o.ranking == (("black",), ("white",)) and o.termination == "decided"


def test_a_game_decided_early_against_the_stones_is_the_smallest_win_on_every_board():
    for board, size, smallest in (("6x6", 6, (19, 17)), ("8x8", 8, (33, 31)), ("10x10", 10, (51, 49))):
        # black, who loses, holds all but the last row, of which white holds one square
        text = "\n".join(["X" * size] * (size - 1) + ["O" + "." * (size - 1)])
        o = Board.parse(text, Variant(board=board)).decided(loser="black")
        assert o.winner == "white" and o.counts["black"] == size * (size - 1)
        assert (o.score["white"], o.score["black"]) == smallest, board


def test_anti_decided_early_the_winner_has_fewer_stones():
    b = Board(Variant(anti=True))
    b.push("d3")  # black 4, white 1
    assert b.decided(loser="white").score == {"black": 4, "white": 5}
    assert b.decided(loser="black").score == {"black": 4, "white": 1}


def test_a_draw_by_agreement_is_half_the_board_each():
    b = Board(Variant(board="10x10"))
    b.push(b.legal_moves[0])
    o = b.decided(loser=None)
    assert o.is_draw and o.score == {"black": 50, "white": 50} and o.termination == "agreement"
    assert Board(Variant(anti=True)).decided(None).score == {"black": 2, "white": 2}


def test_only_two_player_games_are_decided_early():
    with pytest.raises(ValueError):
        Board(Variant(players=3)).decided("red")
    with pytest.raises(ValueError):
        Board().decided("green")
