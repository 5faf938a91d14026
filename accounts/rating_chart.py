"""A player's rating history as inline SVG, drawn on the server like the review's
stone chart (games.charts): one point per rated game, from the rating before the first."""
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

WIDTH, HEIGHT = 600, 180
LEFT, RIGHT, TOP, BOTTOM = 44, 10, 10, 30
STEP = 50  # the y axis runs between multiples of this


def rating_chart(values, *, chart_id):
    """The SVG (safe HTML) of `values`: the shown rating before the first rated game,
    then after each. `chart_id` makes the title's id unique on a page of four charts."""
    games = max(len(values) - 1, 1)
    low = min(values) // STEP * STEP
    high = max(-(-max(values) // STEP) * STEP, low + STEP)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(game):
        return LEFT + inner_w * game / games

    def y(value):
        return TOP + inner_h * (1 - (value - low) / (high - low))

    title = _("Rating after every rated game")
    desc = _("From %(first)d to %(last)d over %(n)d rated games.") % {
        "first": values[0], "last": values[-1], "n": len(values) - 1}
    parts = [
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{chart_id}-title {chart_id}-desc" xmlns="http://www.w3.org/2000/svg" '
        f'font-family="system-ui, sans-serif" font-size="11">',
        f'<title id="{chart_id}-title">{escape(title)}</title><desc id="{chart_id}-desc">{escape(desc)}</desc>',
        f'<rect x="{LEFT}" y="{TOP}" width="{inner_w}" height="{inner_h}" fill="#1f7a4d" opacity="0.08"/>',
    ]
    for i in range(5):
        value = low + (high - low) * i / 4
        gy = y(value)
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{gy:.1f}" y2="{gy:.1f}" stroke="#9aa59e" '
                     f'stroke-width="0.5"/>')
        parts.append(f'<text x="{LEFT - 4}" y="{gy + 4:.1f}" text-anchor="end" fill="#5f6b63">{round(value)}</text>')
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500) if games / s <= 12)
    for game in range(0, games + 1, step):
        parts.append(f'<text x="{x(game):.1f}" y="{HEIGHT - BOTTOM + 14}" text-anchor="middle" '
                     f'fill="#5f6b63">{game}</text>')
    axis = escape(_("rated games"))  # outside the f-string, where makemessages finds it
    parts.append(f'<text x="{LEFT + inner_w / 2:.1f}" y="{HEIGHT - 3}" text-anchor="middle" '
                 f'fill="#5f6b63">{axis}</text>')
    points = " ".join(f"{x(game):.1f},{y(value):.1f}" for game, value in enumerate(values))
    parts.append(f'<polyline class="series" points="{points}" fill="none" stroke="#1f7a4d" stroke-width="2" '
                 f'stroke-linejoin="round"/>')
    for game, value in enumerate(values):
        parts.append(f'<circle cx="{x(game):.1f}" cy="{y(value):.1f}" r="3" fill="#1f7a4d"/>')
    parts.append("</svg>")
    return mark_safe("".join(parts))
