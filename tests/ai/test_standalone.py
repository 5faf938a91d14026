"""games.ai is plain Python: importing it pulls in no Django, Channels or Celery."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_import_without_django():
    code = (
        "import sys; sys.path.insert(0, %r); "
        "import games.ai, games.ai.match, games.ai.cli, games.ai.multiplayer; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'channels', 'celery')]; "
        "assert not bad, bad" % str(ROOT)
    )
    subprocess.run([sys.executable, "-I", "-c", code], check=True, timeout=60)
