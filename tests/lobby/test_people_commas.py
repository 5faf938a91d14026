"""A list of people with ratings reads "Bob 1500?, Carol": no space before the comma
(the lobby draws the commas between items, so an item must not end in a space)."""
import re

from django.template.loader import render_to_string


def test_no_space_before_the_comma_after_a_rating():
    html = render_to_string("lobby/includes/people.html", {"row": {"people": [
        {"name": "Bob", "username": "", "rating": {"value": 1500, "provisional": True}},
        {"name": "Carol", "username": "", "rating": None}]}})
    items = re.findall(r"<li>(.*?)</li>", html, re.S)
    texts = [re.sub(r"<[^>]+>", "", item) for item in items]
    assert texts == ["Bob 1500?", "Carol"]
    change = render_to_string("accounts/includes/rating_change.html", {"change": {"before": 1, "after": 2, "delta": 1}})
    assert not change.endswith(("\n", " "))
