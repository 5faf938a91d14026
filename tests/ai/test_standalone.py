"""The rules core (games.rules) and the computer players (games.ai) are plain
Python: importing them pulls in no Django, Channels or Celery."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bare_import(modules: str) -> None:
    """Import ``modules`` in a fresh interpreter and check what came with them."""
    code = (
        "import sys; sys.path.insert(0, %r); "
        "import %s; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'channels', 'celery')]; "
        "assert not bad, bad" % (str(ROOT), modules)
    )
    subprocess.run([sys.executable, "-I", "-c", code], check=True, timeout=60)


def test_rules_import_without_django():
    bare_import("games, games.rules, games.rules.board, games.rules.geometry, games.rules.notation, "
                "games.rules.perft, games.rules.position_text, games.rules.variant, games.__main__")


def test_ai_import_without_django():
    bare_import("games.ai, games.ai.tools.match, games.ai.tools.cli, games.ai.multiplayer, "
                "games.ai.multiplayer_evaluation, games.ai.tools.fitting, games.ai.patterns, games.ai.learned, "
                "games.ai.tools.train, games.ai.tools.training_data, games.ai.tools.pattern_fit")


def test_site_runtime_imports_no_offline_tool():
    """What the site imports (games.ai and its levels) leaves the offline tools
    (games.ai.tools: command line, matches, training) unloaded."""
    code = (
        "import sys; sys.path.insert(0, %r); "
        "import games.ai, games.ai.levels, games.ai.multiplayer, games.ai.multiplayer_evaluation, games.ai.learned; "
        "bad = [m for m in sys.modules if m.startswith('games.ai.tools')]; "
        "assert not bad, bad" % str(ROOT)
    )
    subprocess.run([sys.executable, "-I", "-c", code], check=True, timeout=60)
