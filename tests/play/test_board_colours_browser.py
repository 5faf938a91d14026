"""What the board draws is told apart at a glance: every stone against the felt, the
flipped-stone marker against every stone (WCAG's 3:1 for graphics), and the keyboard
focus frame against the last-move mark."""
import pytest

from tests.play.helpers import start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

CONTRAST = """
(() => {
  const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = c.map(v => { v /= 255; return v <= .03928 ? v / 12.92 : Math.pow((v + .055) / 1.055, 2.4); });
                     return .2126 * r + .7152 * g + .0722 * b; };
  window.contrast = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => q - p); return (x + .05) / (y + .05); };
})()
"""


def test_stones_markers_and_frames_stand_apart(live_site, page):
    # Black in four players: the first move is mine, so nothing changes the board meanwhile.
    assert start_game(page, live_site, "board=8x8&players=4&colour=black", level="easy") == "black"
    page.evaluate(CONTRAST)
    # Every colour's stone, drawn flipped, on a square of the felt; one square marked as the last move.
    drawn = page.evaluate("""() => {
        const result = {stones: {}, markers: {}};
        for (const colour of ['black', 'white', 'red', 'green']) {
            const cell = document.querySelector(`#game-state .cell[data-stone="${colour}"]`);
            cell.classList.add('flipped');
            const stone = getComputedStyle(cell, '::after'), felt = getComputedStyle(cell).backgroundColor;
            // a stone stands out by its fill or by a rim of 2px or more
            const rim = parseFloat(stone.borderTopWidth) >= 2 ? contrast(stone.borderTopColor, felt) : 0;
            result.stones[colour] = Math.max(contrast(stone.backgroundColor, felt), rim);
            const mark = getComputedStyle(cell, '::before');
            const ring = (mark.boxShadow.match(/rgba?\\([^)]*\\)/) || [mark.backgroundColor])[0];
            result.markers[colour] = Math.max(contrast(mark.backgroundColor, stone.backgroundColor),
                                              contrast(ring, stone.backgroundColor));
            cell.classList.remove('flipped');
        }
        return result; }""")
    assert all(ratio >= 3 for ratio in drawn["stones"].values()), drawn
    assert all(ratio >= 3 for ratio in drawn["markers"].values()), drawn

    page.locator("#game-state button.cell.legal").first.focus()
    page.keyboard.press("ArrowRight")  # keyboard focus: the focus frame shows
    frames = page.evaluate("""() => {
        const focused = document.activeElement;
        const last = Array.from(document.querySelectorAll('#game-state .cell')).find(c => c !== focused && !c.disabled);
        last.classList.add('last');
        const f = getComputedStyle(focused), l = getComputedStyle(last), mark = getComputedStyle(last, '::before');
        return {focus: f.outlineStyle, focusWidth: parseFloat(f.outlineWidth), lastShadow: l.boxShadow,
                lastOutline: l.outlineStyle, lastMark: mark.content}; }""")
    assert frames["focus"] == "solid" and frames["focusWidth"] >= 3 and frames["lastOutline"] == "none", frames
    assert frames["lastShadow"] == "none", frames  # the last move is a corner mark, not a frame like the focus
    assert frames["lastMark"] not in ("none", "normal"), frames
