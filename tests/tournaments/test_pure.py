"""tournaments.pairing is pure Python: no Django, no app of the site, so a worker or a
test runs it alone. Read from the source with ast."""
from pathlib import Path

from tests.site.test_import_direction import SITE, imported_names

PAIRING = Path(__file__).resolve().parents[2] / "tournaments" / "pairing"
OURS = {"games", "lobby", "accounts", "social", "chat", "config", "infra"}


def test_the_pairing_package_imports_nothing_of_the_site():
    files = sorted(PAIRING.rglob("*.py"))
    assert len(files) >= 8
    wrong = sorted(f"{path.name} imports {name}" for path in files for name in imported_names(path)
                   if name.split(".")[0] in SITE | OURS | {"django"})
    assert wrong == []
