"""A request naming a host the site does not serve is refused (400) and logged as one
line (besides daphne's access line of every refused request), not a traceback:
probes with made-up Host headers are common and must not bury the real faults in the
log."""
import http.client

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

BAD_HOSTS = ["evil.example", "attacker.test:8000", "127.0.0.1.nip.io"]


def get_with_host(daphne, host):
    connection = http.client.HTTPConnection("127.0.0.1", daphne.port, timeout=10)
    try:
        connection.request("GET", "/rules/", headers={"Host": host})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_each_request_with_a_bad_host_header_is_one_line_of_the_log(live_site):
    before = live_site.output()
    assert [get_with_host(live_site, host) for host in BAD_HOSTS] == [400] * len(BAD_HOSTS)
    logged = live_site.output()[len(before):]  # written before the answer went out
    lines = [line for line in logged.splitlines() if line.strip()]
    for host in BAD_HOSTS:
        assert sum(f"Invalid HTTP_HOST header: '{host}'" in line for line in lines) == 1, logged
    assert "Traceback" not in logged
    # Besides those, only daphne's access line that every refused request has.
    assert sum('"GET /rules/" 400' in line for line in lines) == len(lines) - len(BAD_HOSTS), logged
