"""The boards and rule sets the compiled core is checked on against the Python
engine (test_core.py, test_core_solver.py, test_core_search.py), and the mark that
skips a check when the core is not built."""

import pytest

from games.ai import core

#: skips a test when the compiled core is not built (GAMES_AI_REQUIRE_CORE=1 in CI makes
#: its absence a failure: test_core.py)
needs_core = pytest.mark.skipif(not core.available(), reason="the compiled core is not built "
                                "(pip install -e . builds it)")

BOARDS = [
    dict(board="6x6"),
    dict(board="8x8"),
    dict(board="10x10"),
    dict(board="octagon"),
    dict(board="8x8", blocked=6, seed=5),
    dict(board="10x10", blocked=4, seed=3),
    dict(board="octagon", blocked=2, seed=1),
    dict(board="6x6", blocked=2, seed=7),
]
SOLVE_CASES = BOARDS + [dict(board=c["board"], anti=True) for c in BOARDS[:4]]


def ids(c):
    return "-".join(f"{k}={v}" for k, v in c.items())


SEARCH_CASES = BOARDS + [dict(board=c["board"], anti=True) for c in BOARDS[:4]]
