"""Numbers typed into query strings and form fields, read without surprises.

`str.isdigit()` is true for '²' and `int()` accepts '٣', '1_000' and thousands
of digits (or raises ValueError past 4300); request data gets a plain reading
instead: optional sign, ASCII digits, a handful of them.
"""
import re

_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")


def whole_number(value, default=None):
    """`value` (a string from a request) as an int, or `default` when it is not a
    whole number of at most nine ASCII digits."""
    if isinstance(value, str) and _WHOLE_NUMBER.fullmatch(value.strip()):
        return int(value)
    return default
