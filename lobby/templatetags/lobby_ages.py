"""How long a table has waited, as the lobby shows it ("waiting for 5 min")."""
from django import template
from django.utils import timezone
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def waiting_for(since):
    minutes = max(0, int((timezone.now() - since).total_seconds() // 60))
    if minutes < 1:
        return _("waiting for less than a minute")
    if minutes < 60:
        return _("waiting for %(minutes)d min") % {"minutes": minutes}
    return _("waiting for %(hours)d h %(minutes)d min") % {"hours": minutes // 60, "minutes": minutes % 60}


@register.simple_tag
def age_format(kind):
    """The page's own wording of an age for static/lobby/ages.js, which counts on between
    pushes: "new", or "minutes" and "hours" with {m} and {h} for the numbers."""
    if kind == "new":
        return _("waiting for less than a minute")
    if kind == "minutes":
        return _("waiting for %(minutes)d min").replace("%(minutes)d", "{m}")
    return _("waiting for %(hours)d h %(minutes)d min").replace("%(hours)d", "{h}").replace("%(minutes)d", "{m}")
