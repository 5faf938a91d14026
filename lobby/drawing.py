"""Drawing the lobby: each row once per language per change (lobby.broadcast pushes
them), and a page's list put together from rows already drawn (lobby.feed), so
a page's own list costs no database read and no row drawn again."""
from urllib.parse import urlencode

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from lobby.listing import OPEN, PLAYING, lobby_rows, lobby_tables


def draw_row(row):
    return render_to_string("lobby/includes/lobby_row.html", {"row": row}).strip()


def draw_row_in_every_language(row):
    drawn = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            drawn[code] = draw_row(row)
    return drawn


def draw_section(section, rows_html):
    """One section (OPEN or PLAYING) from its rows' drawings, in the current language."""
    return render_to_string(f"lobby/includes/lobby_{section}.html", {"rows": rows_html})


def draw_list(rows_html, version, page=1, more=False, query=""):
    """The whole list (#lobby-tables) from {OPEN: [row html], PLAYING: [...]}."""
    return render_to_string("lobby/includes/tables.html", {
        "open_section": draw_section(OPEN, rows_html[OPEN]), "playing_section": draw_section(PLAYING, rows_html[PLAYING]),
        "version": version, "page": page, "more": more, "query": query})


def filter_query(shown):
    """The filter as the page links' query string starts it ("" or "name=value&...&")."""
    query = urlencode({name: value for name, value in shown.items() if value})
    return query + "&" if query else ""


def draw_pages(shown, page, more):
    """The links to the pages around this one (#lobby-pages), in the current language."""
    return render_to_string("lobby/includes/lobby_pages.html", {"page": page, "more": more,
                                                                "query": filter_query(shown)})


def draw_counts(counts):
    return render_to_string("lobby/includes/lobby_counts.html", {"counts": counts})


def read_rows(shown, page):
    """One page of the list for a filter, read from the database now, its rows drawn in
    the current language: ({OPEN: [(table id, row html)], PLAYING: [...]}, whether
    either section has a next page)."""
    tables = lobby_tables(shown, page)
    rows = {OPEN: [(row["id"], draw_row(row)) for row in tables["open_tables"]],
            PLAYING: [(row["id"], draw_row(row)) for row in tables["playing_tables"]]}
    return rows, tables["more"]


def read_drawn(table_ids):
    """{table id: (section, row html)} of those of `table_ids` the lobby lists, read from
    the database now and drawn in the current language."""
    return {table_id: (row["section"], draw_row(row)) for table_id, row in lobby_rows(table_ids).items()}


def draw_rows(rows, version, shown, page, more):
    """The whole list (#lobby-tables) from rows as read_rows gives them."""
    return draw_list({section: [html for _id, html in found] for section, found in rows.items()}, version,
                     page, more, filter_query(shown))


def read_list(shown, page, version):
    """One page of the list for a filter, read now and drawn whole in the current language."""
    rows, more = read_rows(shown, page)
    return draw_rows(rows, version, shown, page, more)
