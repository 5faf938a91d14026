"""The Procfile's web process, as production starts it: a client that makes up a new
X-Forwarded-For for every guess is still one client (daphne's --proxy-headers
believed the leftmost address, which the client writes)."""
import shlex
import sys

import pytest
from django.contrib.auth import get_user_model

from tests import servers
from tests.http_session import Session

pytestmark = pytest.mark.django_db(transaction=True)


def procfile_web_command(port):
    line = next(line for line in (servers.ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    words = shlex.split(line.removeprefix("web:").replace("${PORT:-8000}", str(port)))
    assert words[0] == "daphne"
    words[words.index("-b") + 1] = "127.0.0.1"
    return [sys.executable, "-m", "daphne", *words[1:]]


@pytest.fixture
def procfile_site(tmp_path):
    port = servers.free_port()
    process = servers.Process("procfile-web", procfile_web_command(port), servers.server_env(), tmp_path)
    process.url = f"http://127.0.0.1:{port}"
    try:
        servers.wait_for(lambda: servers.http_status(process.url + "/") == 200, process, "daphne to serve /")
        yield process
    finally:
        process.stop()


def test_a_new_x_forwarded_for_on_each_guess_does_not_escape_the_limit(procfile_site):
    get_user_model().objects.create_user("alice", password="correct horse battery")
    session = Session(procfile_site.url)
    statuses = []
    for attempt in range(6):
        status, _headers, _body = session.post("/accounts/login/", {"username": "alice", "password": "guess"},
                                               headers={"X-Forwarded-For": f"10.1.2.{attempt}"})
        statuses.append(status)
    status, _headers, body = session.post("/accounts/login/", {"username": "alice",
                                                                "password": "correct horse battery"},
                                          headers={"X-Forwarded-For": "10.1.2.200"})
    session.close()
    assert statuses == [200, 200, 200, 200, 429, 429]
    assert status == 429 and b"Too many failed sign-in attempts" in body
