"""Playing table games quickly through the real move path (games.services.play_move),
for the rating and rematch tests: on the 6x6 board a game is over in ~30 moves."""
from games import Variant
from games.models import Game
from games.access import Viewer
from games.errors import GameError
from games.services import computer_move, play_move
from lobby import actions


def rated_table(host, *guests, board="6x6", players=None, rated=True, listed=True, level="normal"):
    """A started table: `host` at Black, the others in turn order."""
    players = players or 1 + len(guests)
    table = actions.open_table(host, Variant(board=board, players=players), rated=rated, listed=listed,
                                level=level)
    for user in guests:
        actions.join(table, Viewer(user=user))
    table.refresh_from_db()
    return table


def finishes(game, square):
    board = game.board()
    board.push(square)
    while board.legal_moves == ["pass"]:
        board.push("pass")
    return board.outcome() is not None


def pick(board):
    """Black takes its first legal move, the others their last: on the 6x6 board White
    wins 24-12 (first moves on both sides end in a draw)."""
    return board.legal_moves[0] if board.turn == "black" else board.legal_moves[-1]


def play(game, until_last=False):
    """Play each seat's move by `pick` (the computer for seats it plays) to the end,
    or, with until_last, to the position where the next move ends the game."""
    for _ in range(400):
        game = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
        if game.is_over:
            return game
        board = game.board()
        if until_last and any(finishes(game, square) for square in board.legal_moves):
            return game
        seat = game.seat_of(game.turn)
        if seat.played_by_computer:
            try:
                computer_move(game.pk, game.ply)
            except GameError:  # a live worker's computer move ended the game first
                continue
        else:
            try:
                play_move(game, pick(board), expected_ply=game.ply, viewer=Viewer(user=seat.user))
            except GameError:  # a live worker's computer move got there first: look again
                continue
    raise AssertionError("the game did not end")


def finishing_square(game):
    return next(square for square in game.board().legal_moves if finishes(game, square))
