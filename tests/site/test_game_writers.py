"""One module writes a game: games/writer.py changes Game, Seat and Move rows (and
takes their row locks), games/creation.py inserts new ones; every other module of
games, and lobby, accounts, chat and config, reads them and calls those; infra does
not touch them. Likewise lobby/actions.py is the one writer of a Table.

Read from the source with ast. A write is a call of one of WRITES on an expression
that reaches those rows: the models themselves (`Seat.objects.filter(...).update()`,
`Game(...).save()`), a game's or a user's related seats and moves (`game.seats`,
`user.seats`, `game.moves`), a name bound to one of those (`seats = Seat.objects...`,
then `seats.delete()`), or an object named as a game, seat or move
(`game.delete()`, `table.game.save()`, `new_seat.save()`).
"""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = ("infra", "lobby", "accounts", "social", "chat", "config")
MODELS = {"Game", "Seat", "Move"}
RELATED = {"seats", "moves"}  # Game.seats, Game.moves, User.seats
WRITES = {"save", "delete", "create", "get_or_create", "update_or_create", "update", "bulk_create", "bulk_update",
          "select_for_update", "add", "remove", "clear", "set"}
# A related manager's add/remove/clear/set writes too; on anything else those names are a set's or a dict's.
WRITES_ON_NAMED_ONLY = {"save", "delete", "create", "get_or_create", "update_or_create", "bulk_create",
                        "bulk_update", "select_for_update"}
ROW_NAME = re.compile(r"^(\w+_)?(game|seat|move)$")


def model_names(tree, models=MODELS, modules=("games.models", "games")):
    """The local names of `models` (games.models' Game, Seat and Move) in a module (aliases included)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in modules:
            names.update(alias.asname or alias.name for alias in node.names if alias.name in models)
        elif isinstance(node, ast.ClassDef) and node.name in models:  # the models' own module
            names.add(node.name)
    return names


def chain(node):
    """The parts of a receiver, root first: `Seat.objects.filter(x).update` -> Seat, objects, filter."""
    parts = []
    while True:
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Name):
            parts.append(node.id)
            return parts[::-1]
        else:
            return parts[::-1]


def reaches_rows(parts, models, bound, related=MODELS | RELATED):
    return bool(parts) and (parts[0] in models | bound or bool(related & set(parts)))


def writes_in(source, filename="<source>"):
    """(line, code) of every write of a Game, Seat or Move in `source`."""
    tree = ast.parse(source, filename)
    models = model_names(tree)
    bound = set()  # names bound to querysets or rows of those models
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            targets, value = [node.target], node.value
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            targets, value = [node.target], node.iter
        if targets and reaches_rows(chain(value), models, set()):
            bound.update(name.id for target in targets for name in ast.walk(target) if isinstance(name, ast.Name))
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WRITES):
            continue
        parts = chain(node.func.value)
        named_row = bool(parts) and ROW_NAME.match(parts[-1]) and node.func.attr in WRITES_ON_NAMED_ONLY
        if reaches_rows(parts, models, bound) or named_row:
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_no_module_outside_games_writes_a_game_a_seat_or_a_move():
    files = [path for app in OUTSIDE for path in (ROOT / app).rglob("*.py")]
    assert any(path.match("lobby/views.py") for path in files)
    wrong = [f"{path.relative_to(ROOT)}:{line}: {code}"
             for path in files for line, code in writes_in(path.read_text(), str(path))]
    assert wrong == [], "\n".join(wrong)


def test_inside_games_only_the_writer_changes_a_game_and_creation_only_inserts():
    games = ROOT / "games"
    files = [path for path in games.rglob("*.py") if "migrations" not in path.parts
             and path.relative_to(games).as_posix() not in ("writer.py", "creation.py", "models.py")]
    assert any(path.match("games/services.py") for path in files)
    wrong = [f"{path.relative_to(ROOT)}:{line}: {code}"
             for path in files for line, code in writes_in(path.read_text(), str(path))]
    assert wrong == [], "\n".join(wrong)
    inserts = {"create", "bulk_create"}
    creation = ROOT / "games" / "creation.py"
    changes = [code for _line, code in writes_in(creation.read_text()) if code.split("(")[0].rsplit(".", 1)[-1]
               not in inserts]
    assert changes == []


def test_the_game_row_is_locked_in_the_writer_only():
    lockers = sorted(path.relative_to(ROOT).as_posix() for app in ("games", *OUTSIDE)
                     for path in (ROOT / app).rglob("*.py")
                     if any("select_for_update" in code for _line, code in writes_in(path.read_text())))
    assert lockers == ["games/writer.py"]


def table_writes_in(source):
    """(line, code) of every write of a lobby Table in `source`."""
    tree = ast.parse(source)
    models = model_names(tree, {"Table"}, ("lobby.models",))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WRITES:
            parts = chain(node.func.value)
            if reaches_rows(parts, models, set(), related={"Table"}) or (parts and parts[-1] == "table"
                                                                          and node.func.attr in WRITES_ON_NAMED_ONLY):
                found.append((node.lineno, ast.unparse(node)))
    return found


def test_only_lobby_actions_writes_a_table():
    files = [path for app in ("games", *OUTSIDE) for path in (ROOT / app).rglob("*.py")
             if "migrations" not in path.parts and path.relative_to(ROOT).as_posix() != "lobby/actions.py"]
    wrong = [f"{path.relative_to(ROOT)}:{line}: {code}"
             for path in files for line, code in table_writes_in(path.read_text())]
    assert wrong == [], "\n".join(wrong)
    assert table_writes_in("from lobby.models import Table\nTable.objects.filter(pk=1).update(game=None)")


def test_the_check_sees_the_writes_the_lobby_used_to_make():
    # The check can fail: the seat writes a lobby module could make itself.
    header = "from games.models import Game, Level, Seat\n"
    for source in (
        "game = Game.objects.select_for_update().get(pk=table.game_id)",
        "Seat.objects.filter(free_seat_q(), pk=seat.pk).update(**taken)",
        "Seat.objects.filter(pk=seat.pk).update(user=None, guest_token='', guest_name='')",
        "def leave(game):\n    game.delete()",
        "def f(table):\n    table.game.save()",
        "def f(game):\n    game.seats.filter(colour='black').update(user=None)",
        "def f(user):\n    user.seats.update(guest_token='')",
        "def f(game):\n    game.moves.all().delete()",
        "def f(game):\n    seats = Seat.objects.filter(game=game)\n    seats.delete()",
        "def f(game):\n    for seat in game.seats.all():\n        seat.left_at = None\n        seat.save()",
        "Seat(game=game, colour='black').save()",
        "Seat.objects.bulk_create([])",
        "Game.objects.create(kind='table')",
    ):
        assert writes_in(header + source), source
    assert writes_in("from games.models import Move as M\nM.objects.filter(ply=1).delete()")
    assert writes_in("import games.models\ngames.models.Game.objects.all().delete()")


def test_the_check_lets_the_lobby_write_its_own_rows_and_read_games():
    source = (
        "from games.models import Game, Seat\n"
        "from lobby.models import Rematch, Table\n"
        "def f(table, game, host, context, seats):\n"
        "    Table.objects.filter(pk=table.pk).update(host=host)\n"
        "    Table.objects.select_for_update().get(pk=table.pk)\n"
        "    rematch, created = Rematch.objects.get_or_create(game=game, defaults={'table': table})\n"
        "    rematch.save()\n"
        "    Table.objects.create(host=host, game=game)\n"
        "    context.update({'game': game})\n"
        "    Game.objects.filter(pk=game.pk).exists()\n"
        "    list(game.seats.select_related('user'))\n"
        "    taken = {seat.colour for seat in seats}\n"
    )
    assert writes_in(source) == []
