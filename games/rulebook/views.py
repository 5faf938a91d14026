"""The rules pages: an index of the variants and one page per variant."""
from django.conf import settings
from django.http import Http404
from django.shortcuts import render

from games import Board
from games.presentation import board_view
from games.rulebook.pages import BY_SLUG, PAGES


def start_board(variant):
    """The start position of `variant` as the game's board template draws it: static."""
    return board_view(Board(variant), show_legal=False)


def index(request):
    return render(request, "rules/index.html", {"pages": PAGES})


def variant(request, slug):
    page = BY_SLUG.get(slug)
    if page is None:
        raise Http404("No rules page for this variant.")
    return render(request, page.template, {
        "page": page,
        "pages": PAGES,
        "diagrams": [
            {"caption": diagram.caption, "variant": diagram.variant, "board": start_board(diagram.variant)}
            for diagram in page.diagrams
        ],
        "play_url": page.play_url,
        "table_url": page.table_url,
        # The time a player has before the computer moves for them (docs/rules.md §11).
        "move_seconds": f"{settings.MOVE_TIME_LIMIT:g}",
    })
