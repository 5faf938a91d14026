"""decide(state, command, now) -> (new state, events): the rules of a turn, in one place.

(To be written: the behaviour is today's, spread over games.services, games.endings,
games.seating and games.deadlines; docs/rules.md §4.1 and §11 are the rules.)
"""


def decide(state, command, now):
    """The state after `command` at `now`, and the events it produced (a list of dicts,
    oldest first). Raises games.turn.refusals.Refused, changing nothing."""
    raise NotImplementedError
