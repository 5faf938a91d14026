"""Who wins and how the seats rank once the players who left rank last
(docs/rules.md §11.4): of several who left, the one who left last above those who
left before. `forfeited`: the colours that left, in order; `outcome`: Board.outcome()."""


def ranking_with_forfeits(forfeited, outcome):
    """outcome.ranking with the leavers taken out and put last."""
    stayed = [tuple(c for c in group if c not in forfeited) for group in outcome.ranking]
    return tuple(group for group in stayed if group) + tuple((c,) for c in reversed(forfeited))


def winner_with_forfeits(forfeited, outcome):
    """The best ranked who stayed; None for a shared top (a draw) or nobody."""
    if not forfeited:
        return outcome.winner
    for group in outcome.ranking:
        stayed = [colour for colour in group if colour not in forfeited]
        if stayed:
            return stayed[0] if len(stayed) == 1 else None
    return None
