"""The layout tells the architecture: the modules of infra, the apps and config import
one another one way only, with no cycle, counting imports inside functions too (a
function-level import that breaks a cycle hides it; it does not remove it).

The rule, read from the source with ast: `import a.b` and `from a import b` point at
the module a.b when it is one of ours, `from a.b import name` at a.b; `from . import x`
is resolved against the importing module's package. Importing a module does not count
as importing its parent package (Python runs the package's __init__ first, but
__init__ files here only re-export what lies beneath them). The AppConfig.ready
imports of apps.py are counted like any other.
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("infra", "games", "lobby", "accounts", "social", "chat", "config")


def our_modules():
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def imports_of(name, path, modules):
    """The modules of ours that module `name` (at `path`) imports, anywhere in it."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1] + ([node.module] if node.module else [])
                source = ".".join(base)
            else:
                source = node.module
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    found.add(f"{source}.{alias.name}")
                elif source in modules:
                    found.add(source)
    return found - {name}


def import_graph():
    modules = our_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph):
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index, low, on_stack, stack, groups = {}, {}, set(), [], []

    def visit(module):
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in graph[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return groups


def test_the_modules_of_infra_the_apps_and_config_import_each_other_without_a_cycle():
    graph = import_graph()
    assert {"infra.redis_clients", "games.services", "games.tasks", "games.analysis", "lobby.actions", "accounts.views",
            "config.asgi"} <= set(graph)
    found = cycles(graph)
    assert found == [], "\n".join(
        " <-> ".join(group) + ": " + "; ".join(f"{m} imports {sorted(graph[m] & set(group))}" for m in group)
        for group in found)


def test_the_cycle_finder_sees_a_cycle_through_a_function_level_import(tmp_path):
    """The check above can fail: two modules importing each other, one of them only
    inside a function (how services, tasks and analysis used to hide theirs)."""
    package = tmp_path / "games"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "services.py").write_text("def later():\n    from games import tasks\n")
    (package / "tasks.py").write_text("from games import services\n")
    modules = {"games": package / "__init__.py", "games.services": package / "services.py",
               "games.tasks": package / "tasks.py"}
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    assert graph["games.services"] == {"games.tasks"}
    assert cycles(graph) == [["games.services", "games.tasks"]]
