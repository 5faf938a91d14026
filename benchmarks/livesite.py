"""The real site for benchmarks: daphne processes and Celery workers as `make run` has
them (and a private Redis unless REDIS_URL is set) on a scratch database, with DEBUG off as in production.

The scratch database is a SQLite file, or with `database="postgres"` a new database
on this machine's PostgreSQL (POSTGRES_URL, default postgres://postgres@127.0.0.1:5432),
dropped again by stop().

Besides the site itself: this process's Django on the site's database (setup_django,
make_players), and what the site's processes cost (cpu_seconds, cpu_by_part,
resident_kb), as every benchmark of the running site measures it."""
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

POSTGRES_URL = os.environ.get("POSTGRES_URL", "postgres://postgres@127.0.0.1:5432")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def postgres(statement):
    import psycopg

    with psycopg.connect(POSTGRES_URL + "/postgres", autocommit=True) as connection:
        connection.execute(statement)


class Site:
    """`daphnes` daphne processes and `workers` Celery workers (+ a private Redis) on a
    scratch database, DEBUG off. `ports`/`urls`: one per daphne; `port`/`url`: the first."""

    def __init__(self, scratch, concurrency, *, daphnes=1, workers=1, database="sqlite"):
        from config.embedded_redis import EmbeddedRedis
        from config.runsite import worker_parts

        self.redis = self.pg_name = None
        redis_url = os.environ.get("REDIS_URL")
        if not redis_url:
            redis_url = f"unix://{scratch}/redis/redis.sock"
            self.redis = EmbeddedRedis(redis_url).start()
        if database == "postgres":
            self.pg_name = f"reversi_bench_{os.getpid()}"
            postgres(f"DROP DATABASE IF EXISTS {self.pg_name}")
            postgres(f"CREATE DATABASE {self.pg_name}")
            database_url = f"{POSTGRES_URL}/{self.pg_name}"
        else:
            database_url = os.environ.get("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
        self.ports = [free_port() for _ in range(daphnes)]
        self.urls = [f"http://127.0.0.1:{port}" for port in self.ports]
        self.port, self.url = self.ports[0], self.urls[0]
        self.env = dict(
            os.environ, DEBUG="0", SECRET_KEY="roundtrip-benchmark-" + "x" * 40, ALLOWED_HOSTS="127.0.0.1",
            SECURE_SSL_REDIRECT="0", REDIS_URL=redis_url, VAR_DIR=str(scratch), LOG_LEVEL="WARNING",
            DATABASE_URL=database_url,
            WEBSOCKETS_PER_ADDRESS="1000000")  # every page a benchmark opens comes from 127.0.0.1
        for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=self.env, check=True)
        self.log = open(Path(scratch) / "site.log", "wb")
        self.daphnes = [self._start([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                     "config.asgi:application"]) for port in self.ports]
        # As `make run` has them (config.runsite): `workers` workers of every queue, niced,
        # and one for the urgent queues (time-outs, tables).
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        common = ["--loglevel", "WARNING", "--without-mingle", "--without-gossip"]
        every, urgent = worker_parts(celery, self.env)
        self.workers = [self._start([*every.command, "--concurrency", str(concurrency), *common,
                                     "--hostname", f"bench{number}@%h"], nice=every.nice)
                        for number in range(workers)]
        self.workers.append(self._start([*urgent.command, *common, "--hostname", "bench-urgent@%h"]))
        self.processes = self.daphnes + self.workers
        deadline = time.monotonic() + 60
        for url in self.urls:
            while not self._healthy(url):
                if time.monotonic() > deadline:
                    self.stop()
                    raise SystemExit("the site did not become healthy; see " + str(Path(scratch) / "site.log"))
                time.sleep(0.3)

    def _start(self, command, nice=0):
        return subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
                                start_new_session=True, preexec_fn=(lambda: os.nice(nice)) if nice else None)

    @staticmethod
    def _healthy(url):
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=5) as response:
                return response.status == 200
        except OSError:
            return False

    def stop(self):
        for process in self.processes:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if self.redis:
            self.redis.stop()
        if self.pg_name:
            from django.db import connections

            connections.close_all()  # this process's own connection to the scratch database
            postgres(f"DROP DATABASE IF EXISTS {self.pg_name} WITH (FORCE)")


def setup_django(site):
    """This process writes users and tables straight into the site's database."""
    os.environ.update({key: site.env[key] for key in ("DATABASE_URL", "REDIS_URL", "VAR_DIR", "SECRET_KEY",
                                                        "ALLOWED_HOSTS", "DEBUG", "SECURE_SSL_REDIRECT")})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def make_players(count):
    from django.contrib.auth import get_user_model
    from django.test import Client

    users, sessions = [], []
    for number in range(count):
        user = get_user_model().objects.create_user(f"bench{number}-{os.getpid()}")
        client = Client()
        client.force_login(user)
        users.append(user)
        sessions.append(client.cookies["sessionid"].value)
    return users, sessions


def cpu_seconds(group):
    """User + system CPU time so far of every live process in a process group (each
    server is started in its own session, so a worker's pool children count too)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:  # fields[2] is the process group
            total += sum(int(value) for value in fields[11:15])
    return total / os.sysconf("SC_CLK_TCK")


def cpu_by_part(site):
    """CPU seconds so far of the daphnes, the workers, the private Redis and this process."""
    own = os.times()
    return {"daphne": sum(cpu_seconds(process.pid) for process in site.daphnes),
            "worker": sum(cpu_seconds(process.pid) for process in site.workers),
            "redis": cpu_seconds(site.redis.process.pid) if site.redis else 0.0,
            "clients": own.user + own.system}


def resident_kb(processes):
    """Resident memory of these processes and their children (kB)."""
    total = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
            group = int(Path(status.parent, "stat").read_text().rsplit(")", 1)[1].split()[2])
        except (OSError, IndexError):
            continue
        if group in {process.pid for process in processes}:
            total += int(re.search(r"VmRSS:\s+(\d+)", text).group(1))
    return total
