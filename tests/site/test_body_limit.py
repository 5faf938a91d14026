"""Bodies past settings.MAX_REQUEST_BODY, sent to real daphne: refused with a 413 page in
the visitor's language before Django reads them, and never held in daphne's memory."""
import http.client
import threading
from urllib.parse import urlencode

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db(transaction=True)

CHUNK = b"f5d6" * 16384  # 64 KB


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024


def post(site, megabytes, chunked=False, language="en"):
    chunks = megabytes * 16
    headers = {"Content-Type": "application/octet-stream", "Accept-Language": language}
    if not chunked:
        headers["Content-Length"] = str(chunks * len(CHUNK))
    connection = http.client.HTTPConnection("127.0.0.1", site.port, timeout=60)
    try:
        connection.request("POST", "/games/import/", (CHUNK for _ in range(chunks)), headers,
                           encode_chunked=chunked)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_an_oversized_body_is_refused_in_the_visitors_language(live_site, chunked):
    status, page = post(live_site, 2, chunked=chunked, language="de")
    assert status == 413
    assert "Zu viel gesendet" in page and f"höchstens {settings.MAX_REQUEST_BODY // 1024} KB" in page


def test_concurrent_oversized_uploads_do_not_grow_daphnes_memory(live_site):
    pid = live_site.popen.pid
    post(live_site, 1)  # whatever a first refusal loads is loaded
    before = rss_mb(pid)
    statuses = []
    threads = [threading.Thread(target=lambda: statuses.append(post(live_site, 30)[0])) for _ in range(4)]
    for thread in threads:
        thread.start()
    peak = before
    while any(thread.is_alive() for thread in threads):
        peak = max(peak, rss_mb(pid))
    for thread in threads:
        thread.join()
    assert peak - before < 20, f"daphne grew from {before:.0f} MB to {peak:.0f} MB"
    assert statuses == [413] * 4


def test_a_form_under_the_limit_is_read_whole(live_site):
    connection = http.client.HTTPConnection("127.0.0.1", live_site.port, timeout=30)
    connection.request("GET", "/games/import/")
    response = connection.getresponse()
    response.read()
    token = response.getheader("Set-Cookie").split("csrftoken=", 1)[1].split(";", 1)[0]
    moves = "f5d6c3d3c4f4f6f3e6e7"
    body = urlencode({"csrfmiddlewaretoken": token, "transcript": moves, "board": "8x8", "players": "2", "handicap": "0", "handicap_colour": "white",
                      "filler": "x" * (settings.MAX_REQUEST_BODY - 2000)})
    connection.request("POST", "/games/import/", body, {
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={token}",
        "Referer": live_site.url + "/games/import/"})
    response = connection.getresponse()
    response.read()
    connection.close()
    assert response.status == 302 and moves in response.getheader("Location")
