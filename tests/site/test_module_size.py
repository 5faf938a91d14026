"""No Python module over 500 lines (the compiled core, games/ai/_core.c, is C): a module
that grows past it is split along a seam, one concept per module, not cut at a line.
The files are git's tracked ones (what a commit holds), the venv aside."""
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 500


def tracked_python_files():
    listed = subprocess.run(["git", "ls-files", "-z", "--", "*.py"], cwd=ROOT, capture_output=True, check=True)
    names = [name for name in listed.stdout.decode().split("\0") if name]
    return [ROOT / name for name in names if not name.startswith(".venv/") and (ROOT / name).is_file()]


def line_count(path):
    with path.open("rb") as source:
        return sum(1 for _ in source)


def test_the_tracked_python_files_are_found():
    names = {path.relative_to(ROOT).as_posix() for path in tracked_python_files()}
    assert {"games/rules/board.py", "manage.py", "tests/site/test_module_size.py"} <= names


def test_no_python_module_is_over_500_lines():
    over = sorted(f"{path.relative_to(ROOT)}: {count} lines"
                  for path in tracked_python_files() if (count := line_count(path)) > LIMIT)
    assert not over, "split along a seam: " + "; ".join(over)
