"""Opening names: the data file and the matching along a game, in every
symmetric form of the start."""

import pytest

from games.rules import Board, Variant
from study.openings import DATA, Opening, OpeningBook, book, name_of, opening_of, read_openings

TIGER = "f5d6c3d3c4"
G = Variant().geometry
# the symmetries of games.rules.geometry.SYMMETRIES that keep the start position
KEEP_START = [k for k in range(8) if Board().transform(k) == Board()]


def transformed(moves, k):
    return [G.transform_name(m, k) for m in moves]


def names(moves):
    return [o.english if o else None for o in name_of(moves)]


def test_the_start_is_kept_by_four_symmetries():
    assert len(KEEP_START) == 4


def test_the_book_has_the_classic_names():
    english = {o.english for o in book().openings}
    assert 80 <= len(book().openings) <= 110
    for name in ("Tiger", "Rose", "Buffalo", "Heath", "Cow", "Chimney", "Snake", "Cat", "Aubrey", "Ganglion",
                 "Stephenson", "Brightwell", "No-Kung", "Bat", "Rabbit", "Mimura", "Inoue", "Sailboat", "Tamenori",
                 "Ishii", "Leader's Tiger", "Shaman", "Horse", "Greenberg", "Swallow", "Lightning Bolt",
                 "Parallel", "Perpendicular", "Diagonal"):
        assert name in english, name


def test_every_line_of_the_data_file_is_a_legal_game():
    for opening in read_openings():
        board = Board()
        for move in opening.moves:
            assert move in board.legal_moves, (opening.english, move)
            board.push(move)


def test_every_line_is_unique_also_up_to_symmetry():
    openings = read_openings()
    assert len({o.moves for o in openings}) == len(openings)
    assert len({o.english for o in openings}) == len(openings)
    # the book refuses a line it already has, written in a mirrored form too
    cow = next(o for o in openings if o.english == "Cow")
    mirrored = Opening(tuple(transformed(cow.moves, 6)), "Mirrored cow", "Gespiegelte Kuh")
    with pytest.raises(ValueError, match="repeats the line of Cow"):
        OpeningBook(openings + [mirrored])


def test_a_line_that_is_not_legal_is_refused():
    with pytest.raises(ValueError, match="move 2"):
        OpeningBook([Opening(("f5", "a1"), "Nonsense", "Unsinn")])


@pytest.mark.parametrize("k", KEEP_START)
def test_the_tiger_from_each_first_move(k):
    moves = transformed([TIGER[i:i + 2] for i in range(0, 10, 2)], k)
    assert moves[0] in ("f5", "d3", "c4", "e6")
    assert names(moves) == [None, "Perpendicular", "Perpendicular", "Perpendicular", "Tiger"]
    assert Board.from_transcript(None, moves).ply == 5


def test_all_four_first_moves_are_covered():
    firsts = {transformed(["f5"], k)[0] for k in KEEP_START}
    assert firsts == {"f5", "d3", "c4", "e6"}


def test_a_game_that_leaves_the_book_keeps_the_last_name():
    game = Board.from_transcript(None, "f5d6c3d3c4f4f6f3e3")
    while not game.is_game_over() and game.ply < 30:
        game.push(game.legal_moves[0])
    along = names(list(game.history))
    assert along[8] == "Lightning Bolt"
    assert set(along[8:]) == {"Lightning Bolt"}
    assert opening_of(list(game.history)).english == "Lightning Bolt"


def test_the_mirrored_branch_of_a_symmetric_position_finds_the_same_name():
    # after f5 f6 e6 the position is symmetric: d6 and f4 are one move
    assert names("f5f6e6f4e3")[-1] == "Cow"
    assert names("f5f6e6d6c5")[-1] == "Cow"
    assert names("f5f6e6d6c5f4")[-1] == "Chimney"  # the book writes it f5f6e6f4e3d6


def test_a_symmetric_position_later_in_the_game_is_matched_through_the_move_after_it():
    # Heath is f5f6e6f4g5; from d3 the same game is d3c3c4e3b4
    heath_d3 = "".join(transformed(["f5", "f6", "e6", "f4", "g5"], 7))
    assert names(heath_d3)[-1] == "Heath"


def test_names_in_german():
    assert opening_of(TIGER).name("de") == "Tiger"
    assert opening_of("f5f6e6f4c3").name("de") == "Büffel"
    assert opening_of("f5f6e6f4c3").name("de-AT") == "Büffel"
    assert opening_of("f5d6c3d3c4f4e6").name("en") == "Leader's Tiger"


def test_passes_and_odd_moves_leave_the_book():
    assert names(["f5", "pass"]) == [None, None]
    assert names([]) == []
    assert opening_of("") is None


def test_the_data_file_names_its_sources_and_is_small():
    text = DATA.read_text(encoding="utf-8")
    assert "samsoft" in text and "NBoard" in text
    assert DATA.stat().st_size < 20_000
