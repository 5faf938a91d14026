"""Who may see a game: its players always; anyone else only once it is made public."""


def can_watch(game, viewer):
    return game.is_public or viewer.seat_in(game) is not None
