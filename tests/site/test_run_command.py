"""README's first command, `make run`, on a fresh clone: it installs, migrates,
serves the site with a healthy /healthz, keeps serving while a killed part comes
back by itself, and Ctrl-C leaves no process behind."""
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import redis as redis_py

from tests.servers import ROOT, free_port, http_status

pytestmark = pytest.mark.slow

# What a newcomer's shell would not have: the test run's own configuration.
NOT_A_NEWCOMERS = {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "VIRTUAL_ENV",
                   "DJANGO_SETTINGS_MODULE", "VAR_DIR", "PYTEST_CURRENT_TEST", "MOVE_TIME_LIMIT"}


def processes_inside(directory):
    """PIDs whose command line or working directory is inside `directory`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        if str(directory) in cmdline or cwd.startswith(str(directory)):
            found.append((int(entry.name), cmdline.strip()))
    return found


def alive(pid):
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is dead already


def group_id(pid):
    try:
        return os.getpgid(pid)
    except ProcessLookupError:
        return None


def group_of(clone, pid):
    return [found for found, _ in processes_inside(clone) if group_id(found) == pid]


def kill_and_time_recovery(clone, site, pid, part):
    """kill -9 one part; the home page keeps answering; seconds until /healthz is 200 again."""
    group, command = group_of(clone, pid), dict(processes_inside(clone))[pid]
    os.kill(pid, signal.SIGKILL)
    killed = time.monotonic()
    while time.monotonic() - killed < 60:
        assert http_status(site + "/", timeout=5) == 200, f"the site stopped serving after {part} was killed"
        # Back: started again (a new process group of the same command), and healthy.
        again = [found for found, cmdline in processes_inside(clone)
                 if cmdline == command and found != pid and group_id(found) == found]
        if again and http_status(site + "/healthz", timeout=5) == 200:
            recovered = time.monotonic() - killed
            break
        time.sleep(0.2)
    else:
        raise AssertionError(f"{part} did not come back within 60 s")
    assert not [orphan for orphan in group if alive(orphan)], f"{part} left processes behind"
    print(f"make run: kill -9 of the {part}: /healthz 200 again after {recovered:.1f} s")
    return recovered


def test_make_run_serves_a_fresh_clone_keeps_serving_while_a_killed_part_comes_back_and_stops_cleanly(tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    env = {key: value for key, value in os.environ.items() if key not in NOT_A_NEWCOMERS}
    env["PORT"] = str(free_port())
    site = f"http://127.0.0.1:{env['PORT']}"
    log_path = tmp_path / "make-run.log"
    started = time.monotonic()
    with open(log_path, "wb") as log:
        make = subprocess.Popen(["make", "run"], cwd=clone, env=env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        healthy = None
        while time.monotonic() - started < 300 and make.poll() is None:
            if http_status(site + "/") == 200 and http_status(site + "/healthz") == 200:
                healthy = time.monotonic() - started
                break
            time.sleep(0.5)
        output = log_path.read_text(errors="replace")
        assert healthy is not None, f"no healthy site within 300 s:\n{output[-4000:]}"
        print(f"make run on a fresh clone: home page and healthy /healthz after {healthy:.1f} s")
        assert f"Reversi is running at {site}/" in output
        with urllib.request.urlopen(site + "/healthz", timeout=10) as response:
            assert json.load(response)["status"] == "ok"

        # kill -9 a part: the others keep serving, it comes back, nothing is orphaned.
        parts = {cmdline: pid for pid, cmdline in processes_inside(clone) if group_id(pid) == pid}
        worker = next(pid for cmdline, pid in parts.items() if "celery -A config worker" in cmdline)
        assert len(group_of(clone, worker)) > 1  # its pool processes
        kill_and_time_recovery(clone, site, worker, "worker")
        redis_cmdline, redis_pid = next((c, p) for c, p in parts.items() if "redis-server" in c)
        socket = redis_cmdline.split("unixsocket:", 1)[1].split()[0]
        client = redis_py.Redis(unix_socket_path=socket)
        client.rpush("queued", "a task")
        # Written to the append-only file (synced every second; a kill -9 spares what
        # Redis has written): kept once the file holds it.
        deadline = time.monotonic() + 10
        while not any(b"a task" in aof.read_bytes() for aof in (clone / "var" / "redis").rglob("*.aof")):
            assert time.monotonic() < deadline, "the task never reached the append-only file"
            time.sleep(0.1)
        kill_and_time_recovery(clone, site, redis_pid, "private Redis")
        assert client.lrange("queued", 0, -1) == [b"a task"]  # kept in var/redis across the restart
        client.close()
    finally:
        if make.poll() is None:
            os.killpg(make.pid, signal.SIGINT)  # what Ctrl-C in the terminal does
        try:
            make.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(make.pid, signal.SIGKILL)
            raise
    deadline = time.monotonic() + 10
    while processes_inside(clone) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_inside(clone) == []
    assert "Stopped." in log_path.read_text(errors="replace")


def test_make_run_says_at_start_when_the_computer_players_run_without_the_compiled_core(tmp_path):
    """A Python the core was not built for still serves, on the pure-Python engine: the
    launcher's first lines say so, before "Reversi is running"."""
    env = {key: value for key, value in os.environ.items() if key not in NOT_A_NEWCOMERS}
    env.update(GAMES_AI_ENGINE="python", GAMES_AI_REQUIRE_CORE="0", PORT=str(free_port()), VAR_DIR=str(tmp_path),
               DATABASE_URL=f"sqlite:///{tmp_path}/db.sqlite3")
    log_path = tmp_path / "run.log"
    with open(log_path, "wb") as log:
        run = subprocess.Popen([sys.executable, "-m", "config.runsite"], cwd=ROOT, env=env, stdout=log,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while "Reversi is running" not in log_path.read_text(errors="replace"):
            assert run.poll() is None and time.monotonic() < deadline, log_path.read_text(errors="replace")
            time.sleep(0.1)
    finally:
        os.killpg(run.pid, signal.SIGINT)
        run.wait(timeout=60)
    output = log_path.read_text(errors="replace")
    launcher_says = output[:output.index("Reversi is running")]
    assert ("WARNING: the computer players run on the pure-Python engine, dozens of times slower than on the "
            "compiled core (games.ai._core), so Hard plays weaker: GAMES_AI_ENGINE=python asks for the Python "
            "engine") in launcher_says
    assert "Stopped." in output
