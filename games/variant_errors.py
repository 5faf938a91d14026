"""The rules core's variant errors (games.rules.variant.InvalidVariantError) in the
visitor's language. The core's own messages cite docs/rules.md for developers and the
command line; visitors get these, which say what to change."""
from django.utils.translation import gettext_lazy as _

MESSAGES = {
    "unknown_board": _("Choose a board: 6×6, 8×8, 10×10 or the octagon."),
    "players": _("A game has 2, 3 or 4 players."),
    "not_boolean": _("An option is either on or off."),
    "handicap_count": _("The corner handicap is 1 to 4 corner stones, or none."),
    "handicap_colour": _("The handicap stones go to Black or White."),
    "small_board_players": _("The 6×6 board is for 2 players only."),
    "free_opening_players": _("The free opening is for 2 players only."),
    "handicap_players": _("The corner handicap is for 2 players only."),
    "handicap_octagon": _("The octagon has no corners, so it has no corner handicap."),
    "blocked_count": _("Block 2, 4, 6 or 8 squares, or none."),
    "blocked_not_list": _("Give the blocked squares by their names, e.g. b3 g6."),
    "blocked_off_board": _("The blocked square %(square)s is not on this board."),
    "blocked_twice": _("The blocked square %(square)s is given twice."),
    "blocked_centre": _("The blocked square %(square)s lies in the central 4×4 block, which stays free."),
    "blocked_cut": _("The blocked square %(square)s is already cut off the octagon."),
    "blocked_corner": _("With a corner handicap no corner can be blocked (%(square)s)."),
    "blocked_symmetry": _("Blocked squares come in pairs across the centre: %(square)s needs %(twin)s too."),
    "record": _("The record's variant cannot be read."),
}


def variant_error_message(error):
    """What to tell the visitor about `error`, in the active language."""
    message = MESSAGES.get(getattr(error, "code", ""), _("This combination of options is not offered."))
    params = getattr(error, "params", None)
    return str(message) % params if params else str(message)
