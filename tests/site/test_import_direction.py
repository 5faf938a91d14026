"""Imports point down only. The layers, lowest first:

    the rules core (games.rules, games.ai, games.turn, and study: opening names and formats)
    < infra < games < accounts < lobby < social < chat < config

A module imports its own layer and those below it, never one above (imports inside
functions count). The core imports nothing of the site (no Django or the site's other
frameworks, no games module outside the core, only the `games` package itself, whose
__init__ only re-exports the rules). config is the top: nothing imports it, and of its
modules only the wiring ones (WIRING) import the apps.

Read from the source with ast.
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# study's modules are pure (names and formats on top of games.rules, no Django) and
# belong with the core; a Django side of study would get a layer of its own above games.
CORE = ("games.rules", "games.ai", "games.turn", "study")


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
    assert {"games.rules", "games.rules.board", "games.ai", "games.ai.search", "study.openings",
            "study.formats.ggf"} <= names


# Lowest first.
LAYERS = (
    CORE,  # the rules core, the computer players, opening names and formats: no Django
    ("infra",),  # Redis clients, per-loop objects, sends, frames, caches: no app
    ("games",),  # the Django side of a game
    ("accounts",),
    ("lobby",),  # online tables (opens them with accounts' players)
    ("social",),  # people around the board: builds on lobby and accounts
    ("chat",),  # chat at a table: asks social who blocks whom
    ("config",),  # settings and wiring: nothing imports it
)

# The modules of config that wire the apps in, and so import them. Every other module
# of config is the server's own plumbing (request threads, body limit, Celery's broker,
# /healthz...) and imports no app.
WIRING = {"config", "config.settings", "config.asgi", "config.routing", "config.urls", "config.celery",
          "config.context_processors", "config.runsite"}
APPS = ("games", "lobby", "accounts", "social", "chat")


def layer_of(name):
    """The index in LAYERS of the module `name`, by its longest matching prefix, or None
    for a module that is not ours (the standard library, Django...)."""
    if name == "games":  # the bare package: its __init__ only re-exports the core (below)
        return 0
    matches = [(len(prefix), index) for index, prefixes in enumerate(LAYERS) for prefix in prefixes
               if within(name, prefix)]
    return max(matches)[1] if matches else None


def arrows_up(importer, names):
    here = layer_of(importer)
    return sorted(f"{importer} imports {name}" for name in names
                  if layer_of(name) is not None and layer_of(name) > here)


def our_files():
    tops = sorted({prefix.split(".")[0] for prefixes in LAYERS for prefix in prefixes})
    return [path for top in tops for path in (ROOT / top).rglob("*.py")]


def test_the_layers_cover_every_module_of_ours():
    names = {module_name(path) for path in our_files()}
    assert {"infra.redis_clients", "infra.outages", "games.services", "lobby.actions", "config.asgi"} <= names
    assert all(layer_of(name) is not None for name in names)
    assert layer_of("infra.per_loop") < layer_of("games.services") < layer_of("lobby.actions")


def test_every_import_points_down_the_layers():
    wrong = [arrow for path in our_files() for arrow in arrows_up(module_name(path), imported_names(path))]
    assert wrong == []


def test_config_imports_the_apps_only_in_its_wiring_modules():
    wrong = sorted(f"{module_name(path)} imports {name}"
                   for path in (ROOT / "config").rglob("*.py") if module_name(path) not in WIRING
                   for name in imported_names(path) if any(within(name, app) for app in APPS))
    assert wrong == []


def test_the_layer_check_sees_an_arrow_up():
    # The check itself can fail: each of these points up, some only inside a function.
    for importer, package, source in (
            ("infra.sending", ["infra"], "from games.models import Game"),
            ("infra.per_loop", ["infra"], "def f():\n    from config.settings import DEBUG"),
            ("games.deadlines", ["games"], "from config import settings"),
            ("games.services", ["games"], "def f():\n    from lobby import actions"),
            ("lobby.actions", ["lobby"], "from social.relations import is_blocked"),
            ("accounts.views", ["accounts"], "import chat.rooms"),
            ("accounts.views", ["accounts"], "from lobby.models import Table"),
            ("games.rules.board", ["games", "rules"], "from infra.lru import LRU"),
            ("games.rules.board", ["games", "rules"], "from .. import models")):
        assert arrows_up(importer, names_in(source, package)), (importer, source)
    for importer, package, source in (
            ("games.services", ["games"], "from infra.outages import UNREACHABLE"),
            ("games.services", ["games"], "from games import Board"),
            ("lobby.actions", ["lobby"], "from accounts.models import Player"),
            ("chat.rooms", ["chat"], "from social.relations import is_blocked"),
            ("config.asgi", ["config"], "from games.web_heartbeat import beat_while_listening"),
            ("infra.redis_clients", ["infra"], "from django.conf import settings")):
        assert not arrows_up(importer, names_in(source, package)), (importer, source)


# The site: our Django apps and settings, and the frameworks they run on. (The offline
# trainer's numerical libraries are not the site; the runtime's standard-library-only
# rule is checked by running them in a bare interpreter: tests/ai/test_standalone.py.)
SITE = {"accounts", "lobby", "social", "chat", "config", "infra", "django", "channels", "channels_redis", "daphne", "celery", "kombu",
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
