"""Imports point one way: the site (lobby, accounts) builds on games, never the
reverse; and the core (everything under games/rules and games/ai, however it is
divided into sub-packages) imports nothing of the site: no Django or the site's
other frameworks, no games module outside the core (models, services...), only the
`games` package itself, whose __init__ only re-exports the rules.

Read from the source with ast, counting imports inside functions too.
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ("games.rules", "games.ai")


def module_name(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(path):
    """Every module named by an import in the file at `path`, relative ones resolved."""
    name = module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    return names_in(path.read_text(), package)


def is_module(name):
    base = ROOT / name.replace(".", "/")
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


def names_in(source, package):
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                source_module = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                source_module = node.module
            found.add(source_module)
            # `from games import services` imports the module games.services.
            found.update(f"{source_module}.{alias.name}" for alias in node.names
                         if is_module(f"{source_module}.{alias.name}"))
    return found


def within(name, prefix):
    return name == prefix or name.startswith(prefix + ".")


def core_files():
    return [path for prefix in CORE for path in (ROOT / prefix.replace(".", "/")).rglob("*.py")]


def test_the_core_is_found():
    names = {module_name(path) for path in core_files()}
    assert {"games.rules", "games.rules.board", "games.ai", "games.ai.search"} <= names


def test_games_imports_none_of_lobby_accounts_social_or_chat():
    wrong = sorted(f"{module_name(path)} imports {name}"
                   for path in (ROOT / "games").rglob("*.py") for name in imported_names(path)
                   if any(within(name, app) for app in ("lobby", "accounts", "social", "chat")))
    assert wrong == []


# The site: our Django apps and settings, and the frameworks they run on. (The offline
# trainer's numerical libraries are not the site; the runtime's standard-library-only
# rule is checked by running them in a bare interpreter: tests/ai/test_standalone.py.)
SITE = {"accounts", "lobby", "social", "chat", "config", "django", "channels", "channels_redis", "daphne", "celery", "kombu",
        "redis", "django_htmx", "whitenoise", "psycopg", "dj_database_url"}


def allowed_in_core(name):
    top = name.split(".")[0]
    if top == "games":
        return name == "games" or any(within(name, prefix) for prefix in CORE)
    return top not in SITE


def test_the_rules_and_the_computer_players_import_nothing_of_the_site():
    wrong = sorted(f"{module_name(path)} imports {name}"
                   for path in core_files() for name in imported_names(path) if not allowed_in_core(name))
    assert wrong == []


def test_the_games_package_itself_only_re_exports_the_core():
    # The core may write `from games import Board`: that runs games/__init__, which must stay core-only.
    names = imported_names(ROOT / "games" / "__init__.py")
    assert names and all(any(within(name, prefix) for prefix in CORE) for name in names), names


def test_the_check_sees_a_site_import():
    # The check itself can fail: a core module importing Django or the site is caught.
    package = ["games", "ai"]
    for source in ("import django", "from games.models import Game", "from games import services",
                   "from .. import models", "from lobby.models import Table", "def f():\n    import accounts"):
        assert not all(allowed_in_core(name) for name in names_in(source, package)), source
    for source in ("from games import Board, Variant", "from .search import Searcher", "import random",
                   "from games.rules.geometry import SYMMETRIES"):
        assert all(allowed_in_core(name) for name in names_in(source, package)), source
