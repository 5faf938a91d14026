"""Charts drawn on the server as inline SVG (no JavaScript library).

`stone_chart` draws the stones of every colour after every ply of a game, one
line per colour, with a marker at the ply on show and, when an analysis is
done, small triangles under the worst mistakes. It works from plain numbers, so
the review of a stored game and of an imported one draw it the same way.
"""
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games.presentation import colour_name

# Line colours: white stones are drawn grey, so that the line shows on a light chart.
STROKES = {"black": "#111111", "white": "#9e9e9e", "red": "#c62828", "green": "#2e7d32"}

WIDTH, HEIGHT = 600, 220
LEFT, RIGHT, TOP, BOTTOM = 34, 10, 10, 30


def _nice_top(value):
    """The top of the y axis: the next multiple of 8, so the quarter lines are whole stones."""
    return max(8, -(-value // 8) * 8)


def _fmt(number):
    return f"{number:.1f}".rstrip("0").rstrip(".")


def stone_chart(series, colours, *, current=None, marks=()):
    """The SVG (safe HTML) of `series`: a list, one item per ply from the start
    (ply 0), of {colour: stones}. `current` is the ply on show; `marks` are plies
    to flag (worst mistakes)."""
    plies = max(len(series) - 1, 1)
    top = _nice_top(max([1] + [stones for counts in series for stones in counts.values()]))
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(ply):
        return LEFT + inner_w * ply / plies

    def y(value):
        return TOP + inner_h * (1 - value / top)

    title = _("Stones after every move")
    if current is not None and 0 <= current < len(series):
        counts = series[current]
        standing = ", ".join(f"{colour_name(c)} {counts.get(c, 0)}" for c in colours)
        desc = _("A line for each colour, from the start to move %(last)d. After move %(ply)d: %(counts)s.") % {
            "last": len(series) - 1, "ply": current, "counts": standing}
    else:
        desc = _("A line for each colour, from the start to move %(last)d.") % {"last": len(series) - 1}

    parts = [
        f'<svg class="stone-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg" '
        f'font-family="system-ui, sans-serif" font-size="11">',
        f'<title id="chart-title">{escape(title)}</title><desc id="chart-desc">{escape(desc)}</desc>',
        f'<rect x="{LEFT}" y="{TOP}" width="{inner_w}" height="{inner_h}" fill="#1f7a4d" opacity="0.12"/>',
    ]
    # horizontal grid with stone counts
    for i in range(5):
        value = top * i / 4
        gy = y(value)
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{gy:.1f}" y2="{gy:.1f}" stroke="#9aa59e" '
                     f'stroke-width="0.5"/>')
        parts.append(f'<text x="{LEFT - 4}" y="{gy + 4:.1f}" text-anchor="end" fill="#5f6b63">{_fmt(value)}</text>')
    # plies along the bottom
    step = next(s for s in (1, 2, 5, 10, 20, 50) if plies / s <= 12)
    for ply in range(0, plies + 1, step):
        parts.append(f'<text x="{x(ply):.1f}" y="{HEIGHT - BOTTOM + 14}" text-anchor="middle" '
                     f'fill="#5f6b63">{ply}</text>')
    axis = escape(_("move"))  # outside the f-string, where makemessages finds it
    parts.append(f'<text x="{LEFT + inner_w / 2:.1f}" y="{HEIGHT - 3}" text-anchor="middle" '
                 f'fill="#5f6b63">{axis}</text>')
    # the ply on show
    if current is not None and 0 <= current < len(series):
        cx = x(current)
        parts.append(f'<line class="current-ply" x1="{cx:.1f}" x2="{cx:.1f}" y1="{TOP}" y2="{TOP + inner_h}" '
                     f'stroke="#c9852b" stroke-width="2"/>')
    # one line per colour
    for colour in colours:
        points = " ".join(f"{x(ply):.1f},{y(counts.get(colour, 0)):.1f}" for ply, counts in enumerate(series))
        if len(series) == 1:
            points += f" {x(1):.1f},{y(series[0].get(colour, 0)):.1f}"
        stroke = STROKES.get(colour, "#555555")
        parts.append(f'<polyline class="series" data-colour="{escape(colour)}" points="{points}" fill="none" '
                     f'stroke="{stroke}" stroke-width="2" stroke-linejoin="round"/>')
        if current is not None and 0 <= current < len(series):
            cy = y(series[current].get(colour, 0))
            parts.append(f'<circle cx="{x(current):.1f}" cy="{cy:.1f}" r="4" fill="{stroke}" stroke="#555555"/>')
    # legend, top left
    lx = LEFT + 8
    for colour in colours:
        stroke = STROKES.get(colour, "#555555")
        parts.append(f'<line x1="{lx}" x2="{lx + 16}" y1="{TOP + 10}" y2="{TOP + 10}" stroke="{stroke}" '
                     f'stroke-width="3"/><text x="{lx + 20}" y="{TOP + 14}" fill="#1d2520">'
                     f'{escape(colour_name(colour))}</text>')
        lx += 28 + 7 * len(colour_name(colour))
    # worst mistakes
    for ply in marks:
        if 0 < ply < len(series):
            mx, my = x(ply), TOP + inner_h
            title = escape(_("Mistake at move %(ply)d") % {"ply": ply})
            parts.append(f'<path class="mistake-mark" data-ply="{int(ply)}" d="M{mx:.1f},{my - 9:.1f} '
                         f'l-5,9 h10 z" fill="#a3262a"><title>{title}</title></path>')
    parts.append("</svg>")
    return mark_safe("".join(parts))
