"""The translation catalogs must be compiled for these tests; `make test` does it
(`make messages`), and this fixture does it too when pytest is run on its own."""
import os
import tempfile
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.conf import settings

LOCALE_DIR = Path(settings.LOCALE_PATHS[0])


def compile_catalogs():
    """Compile every locale/*/LC_MESSAGES/*.po whose .mo is missing or older, atomically."""
    for po_path in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file, locale=po_path.parent.parent.name)
        fd, tmp = tempfile.mkstemp(dir=po_path.parent, suffix=".mo.tmp")
        with os.fdopen(fd, "wb") as mo_file:
            write_mo(mo_file, catalog)
        os.replace(tmp, mo_path)


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogs():
    compile_catalogs()
    # Django caches translations per process: read the files just compiled.
    from django.utils import translation
    from django.utils.translation import trans_real

    trans_real._translations.clear()
    trans_real._default = None
    translation.deactivate()
