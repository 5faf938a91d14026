"""Values every template sees."""
import subprocess
from functools import lru_cache
from importlib import metadata

from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy as _

from games.history import your_turn_games

# The site's sections, by URL name. A section shows up once its app provides the URL.
NAVIGATION = (
    ("play", _("Play")),
    ("table_new", _("Multiplayer")),
    ("lobby", _("Lobby")),
    ("table_join", _("Join with a code")),
    ("my_games", _("My games")),
    ("rules", _("Rules")),
)


@lru_cache(maxsize=1)
def site_version():
    """'0.1.0 · 1a2b3c4': the package version and, in a checkout, the commit."""
    try:
        version = metadata.version("reversi-site")
    except metadata.PackageNotFoundError:
        version = "dev"
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=2,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return f"{version} · {commit}" if commit else version


def nav_items(user=None):
    """The header's links. A visitor without an account finds Multiplayer in the lobby
    (watching, joining as a guest, and "Sign in to open a table"), not at the sign-in
    page that opening a table needs."""
    visitor = user is not None and not user.is_authenticated
    items = []
    for name, label in NAVIGATION:
        if visitor and name == "lobby":
            continue  # under Multiplayer
        try:
            items.append({"url": reverse("lobby" if visitor and name == "table_new" else name), "label": label})
        except NoReverseMatch:
            continue
    return items


def site(request):
    return {"site_version": site_version(), "nav_items": nav_items(getattr(request, "user", None)),
            # Counted when the header draws it (a page without a header asks nothing).
            "your_turn_count": SimpleLazyObject(lambda: your_turn_games(getattr(request, "user", None)).count())}
