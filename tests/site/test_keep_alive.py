"""Every answer of real daphne says where it ends (Content-Length or chunks), refusals
included, so a client or proxy can send the next request on the same connection."""
import socket

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def read_response(connection, method):
    """One response off a raw socket: (status, headers, body), framed as HTTP/1.1 says."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += connection.recv(65536) or b""
    head, rest = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, value in (line.split(":", 1) for line in lines[1:])}
    assert "content-length" in headers or "chunked" in headers.get("transfer-encoding", ""), \
        f"{lines[0]} for {method} says neither its length nor chunked: {headers}"
    status = int(lines[0].split()[1])
    if method == "HEAD":
        return status, headers, b"", rest
    if "content-length" in headers:
        length = int(headers["content-length"])
        while len(rest) < length:
            rest += connection.recv(65536)
        return status, headers, rest[:length], rest[length:]
    body = b""
    while True:  # chunks: a hex size line, the chunk, CRLF; size 0 ends
        while b"\r\n" not in rest:
            rest += connection.recv(65536)
        size_line, rest = rest.split(b"\r\n", 1)
        size = int(size_line.split(b";")[0], 16)
        while len(rest) < size + 2:
            rest += connection.recv(65536)
        body, rest = body + rest[:size], rest[size + 2:]
        if size == 0:
            return status, headers, body, rest


@pytest.mark.parametrize("method", ["HEAD", "GET"])
def test_a_foreign_host_is_refused_and_the_connection_still_serves(live_site, method):
    with socket.create_connection(("127.0.0.1", live_site.port), timeout=10) as connection:
        connection.sendall(f"{method} / HTTP/1.1\r\nHost: attacker.example\r\n\r\n".encode())
        status, headers, _body, left = read_response(connection, method)
        assert status == 400 and left == b""
        connection.sendall(b"GET /rules/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status, headers, body, _left = read_response(connection, "GET")
        assert status == 200 and b"</html>" in body
