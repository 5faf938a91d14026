"""Games draw HTML at the edge only: the sockets, the views and their answers, the
drawing module and template tags. The domain and the workers (games.services, the
tasks, the writer...) push events as data (games.events) and import no template
machinery, so a worker's move or time-out costs no drawing.

Read from the source with ast.
"""
import ast

from tests.site.test_import_direction import ROOT, module_name, names_in, within

EDGE = ("games.consumers", "games.responses", "games.drawing", "games.event_views")
DRAWING = ("django.template", "django.shortcuts", "django.templatetags")


def at_the_edge(name):
    parts = name.split(".")
    return (name in EDGE or parts[-1] == "views" or "templatetags" in parts)


def drawing_in(source, package):
    """What in `source` draws a template: imports of the template machinery, calls of
    render_to_string or a template by name."""
    found = sorted(name for name in names_in(source, package) if any(within(name, top) for top in DRAWING))
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if called in ("render_to_string", "get_template", "select_template"):
                found.append(f"calls {called}")
    return found


def test_no_module_of_games_draws_outside_the_edge():
    wrong = []
    for path in sorted((ROOT / "games").rglob("*.py")):
        name = module_name(path)
        if not at_the_edge(name):
            package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
            wrong += [f"{name}: {what}" for what in drawing_in(path.read_text(), package)]
    assert wrong == []


def test_the_edge_is_what_it_says():
    assert at_the_edge("games.consumers") and at_the_edge("games.review.views") and at_the_edge("games.drawing")
    assert not at_the_edge("games.services") and not at_the_edge("games.broadcast") and not at_the_edge("games.tasks")


def test_the_check_sees_a_drawing():
    for source in ("from django.template.loader import render_to_string",
                   "from django.template import loader\nloader.render_to_string('x.html', {})",
                   "import django.template.loader",
                   "def f():\n    from django.shortcuts import render",
                   "from games.drawing import render_to_string\nrender_to_string('x.html')"):
        assert drawing_in(source, ["games"]), source
    for source in ("from games import events\nevents.publish(game, [])", "from django.utils import translation"):
        assert not drawing_in(source, ["games"]), source
