"""study is plain Python: importing it and running its command line pull in no
Django, Channels or Celery, so it runs in a bare python3 and a worker."""

import subprocess
import sys
from pathlib import Path

from tests.study import wthor_files

ROOT = Path(__file__).resolve().parents[2]
NO_SITE = "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'channels', 'celery')]; assert not bad, bad"


def run_bare(*args, check=True):
    """``python -I -m study args`` from the repository, the site's packages unseen."""
    code = ("import sys, runpy; sys.path.insert(0, %r); sys.argv = ['study'] + %r; "
            "code = 0\ntry:\n    runpy.run_module('study', run_name='__main__')\n"
            "except SystemExit as exit:\n    code = exit.code\n%s\nsys.exit(code)" % (str(ROOT), list(args), NO_SITE))
    return subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=60, check=check)


def test_study_imports_without_django():
    code = ("import sys; sys.path.insert(0, %r); import study, study.openings, study.formats, "
            "study.formats.transcripts, study.formats.board_strings, study.formats.ggf, study.formats.wthor, "
            "study.__main__; study.openings.book(); %s" % (str(ROOT), NO_SITE))
    subprocess.run([sys.executable, "-I", "-c", code], check=True, timeout=60)


def test_openings_on_the_command_line():
    out = run_bare("openings", "d3 c5 f6 f5 e6").stdout.splitlines()
    assert out[-1].split() == ["5", "e6", "Tiger"]
    german = run_bare("openings", "f5f6e6f4c3", "--language", "de").stdout
    assert "Büffel" in german


def test_convert_transcripts_to_ggf_and_back(tmp_path):
    games = tmp_path / "games.txt"
    games.write_text("f5d6c3d3c4\nF5 F6 E6 F4 C3\n")
    ggf = tmp_path / "games.ggf"
    ggf.write_text(run_bare("convert", str(games), "--to", "ggf").stdout)
    assert ggf.read_text().count("(;GM[Othello]") == 2
    assert run_bare("convert", str(ggf), "--to", "transcript").stdout.split() == ["f5d6c3d3c4", "f5f6e6f4c3"]


def test_convert_a_wthor_database_with_names(tmp_path):
    base = tmp_path / "WTH_2004"
    (tmp_path / "WTH_2004.wtb").write_bytes(wthor_files.database([{"moves": ["f5", "d6"], "black": 1, "white": 0}]))
    (tmp_path / "WTHOR.JOU").write_bytes(wthor_files.names(["Tamenori", "Leader"], 20))
    (tmp_path / "WTHOR.TRN").write_bytes(wthor_files.names(["Paris"], 26))
    out = run_bare("convert", f"{base}.wtb", "--to", "ggf", "--players", str(tmp_path / "WTHOR.JOU"),
                   "--tournaments", str(tmp_path / "WTHOR.TRN")).stdout
    assert "PB[Leader]PW[Tamenori]" in out and "PC[Paris]" in out and out.rstrip().endswith("B[f5]W[d6];)")


def test_a_bad_file_is_named_on_the_command_line(tmp_path):
    games = tmp_path / "games.txt"
    games.write_text("f5d6\nf5 d6 c3 d3 d5\n")
    result = run_bare("convert", str(games), "--to", "ggf", check=False)
    assert result.returncode == 2
    assert "game 2, move 5: d5 is illegal" in result.stderr
