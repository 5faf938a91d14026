"""The rules pages: one per variant (docs/rules.md §11), in the order the index lists them.

A page is its slug (the URL), its titles, the variant its "Play now" and
"Open a table" links prefill, and the start positions it draws (each a variant
of the rules library, so the diagram is always what `games.Board` starts with).
The prose lives in templates/rules/pages/<slug>.html.
"""
from dataclasses import dataclass

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

from games import Variant
from games.forms import variant_query


@dataclass(frozen=True)
class Diagram:
    variant: Variant
    caption: str


@dataclass(frozen=True)
class RulesPage:
    slug: str
    title: str  # the variant's name: index, navigation, table header
    heading: str  # the page's h1
    summary: str  # one sentence under the heading and on the index
    variant: Variant  # what "Play now" and "Open a table" prefill
    diagrams: tuple  # start positions drawn on the page

    @property
    def template(self):
        return f"rules/pages/{self.slug}.html"

    @property
    def query(self):
        return variant_query(self.variant)

    @property
    def play_url(self):
        return with_query(url_or_path('play', '/play/'), self.query)

    @property
    def table_url(self):
        return with_query(url_or_path('table_new', '/tables/new/'), self.query)

    def get_absolute_url(self):
        return reverse("rules_variant", args=[self.slug])


def with_query(url, query):
    """`url` with `query` appended; the plain variant has no query, so no bare "?"."""
    return f"{url}?{query}" if query else url


def url_or_path(name, path):
    """The URL named `name`, or `path` while the app that provides it has not landed."""
    try:
        return reverse(name)
    except NoReverseMatch:
        return path


def _page(slug, title, heading, summary, variant, diagrams=None):
    if diagrams is None:
        diagrams = (Diagram(variant, _("The start position")),)
    return RulesPage(slug, title, heading, summary, variant, tuple(diagrams))


PAGES = (
    _page(
        "reversi", _("Reversi"), _("How to play Reversi"),
        _("Trap your opponent's stones on an 8×8 board to flip them to your colour."),
        Variant(board="8x8"),
    ),
    _page(
        "reversi-6x6", _("Reversi 6×6"), _("Reversi 6×6"),
        _("Reversi on the small 6×6 board: the same rules, 36 squares, short games."),
        Variant(board="6x6"),
    ),
    _page(
        "reversi-10x10", _("Reversi 10×10"), _("Reversi 10×10"),
        _("Reversi on the large 10×10 board: the same rules, 100 squares, longer games."),
        Variant(board="10x10"),
    ),
    _page(
        "octagon", _("Octagon Reversi"), _("Octagon Reversi"),
        _("Reversi on a 10×10 board cut back by three squares at every corner, leaving an "
          "octagon of 88 squares with eight corner-like squares."),
        Variant(board="octagon"),
    ),
    _page(
        "anti-reversi", _("Anti-Reversi"), _("Anti-Reversi"),
        _("Reversi with the aim turned around: whoever has fewer stones at the end wins."),
        Variant(anti=True),
    ),
    _page(
        "three-or-four-players", _("Reversi for three or four players"),
        _("Reversi for three or four players"),
        _("Reversi for three or four players with a colour each: stones of every opposing colour "
          "are flipped, and whoever cannot flip still places a stone next to another."),
        Variant(board="8x8", players=4),
        diagrams=(
            Diagram(Variant(board="8x8", players=3), _("The start with three players: the neutral stone on d4")),
            Diagram(Variant(board="8x8", players=4), _("The start with four players")),
        ),
    ),
    _page(
        "free-opening", _("Free opening"), _("Reversi with a free opening"),
        _("Reversi starting on an empty board: the players set the first four stones on the central "
          "squares themselves."),
        Variant(free_opening=True),
        diagrams=(Diagram(Variant(free_opening=True),
                          _("The empty board: the first four stones go on the four central squares")),),
    ),
    _page(
        "blocked-squares", _("Blocked squares"), _("Reversi with blocked squares"),
        _("Reversi with some squares taken off the board, drawn at random for every game."),
        # The links ask for four squares (a new game draws them); the diagram shows one such draw.
        Variant.with_random_blocked(4, seed=1),
        diagrams=(Diagram(Variant.with_random_blocked(4, seed=1),
                          _("An example: four blocked squares on the 8×8 board, drawn anew for every game")),),
    ),
    _page(
        "corner-handicap", _("Corner handicap"), _("Reversi with a corner handicap"),
        _("Reversi with a head start: one to four stones of one colour stand on the corners before the "
          "first move."),
        Variant(handicap=2),
        diagrams=(Diagram(Variant(handicap=2), _("Two handicap stones for White, on a1 and h8")),),
    ),
)

BY_SLUG = {page.slug: page for page in PAGES}
