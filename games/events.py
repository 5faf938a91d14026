"""A game's events, numbered by its version (the contract games.writer writes against;
the stored GameEvent rows and their publishing come with the edge's module)."""


def record(game, events):
    """Inside the transaction: `events` numbered with the game's next versions."""
    return [{**event, "v": game.version + number} for number, event in enumerate(events, 1)]


def publish(game, events):
    """After commit: sends `events` to the game's group (not yet: pages get whole states)."""
