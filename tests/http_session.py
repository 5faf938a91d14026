"""A browser-like HTTP session for tests against a live daphne: one keep-alive
connection, cookies kept, the CSRF token sent with every POST as a form does."""
import http.client
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit


class Session:
    def __init__(self, base_url, timeout=15):
        parts = urlsplit(base_url)
        self.host, self.port, self.timeout = parts.hostname, parts.port, timeout
        self.cookies = {}
        self.connection = None

    def _connect(self):
        if self.connection is not None:
            self.connection.close()
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)

    def close(self):
        if self.connection is not None:
            self.connection.close()

    def request(self, method, target, body=None, headers=None):
        """(status, headers, body) of one request; `target` is sent exactly as given."""
        sent = {"Host": f"{self.host}:{self.port}"}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        sent.update(headers or {})
        for attempt in (1, 2):
            if self.connection is None:
                self._connect()
            try:
                self.connection.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
                for name, value in sent.items():
                    self.connection.putheader(name, value)
                if body is not None or method in ("POST", "PUT", "PATCH"):
                    self.connection.putheader("Content-Length", str(len(body or b"")))
                self.connection.endheaders(body)
                response = self.connection.getresponse()
                data = response.read()
            except (http.client.HTTPException, ConnectionError):
                self._connect()  # the server closed a kept-alive connection: once more on a new one
                if attempt == 2:
                    raise
                continue
            if response.will_close:
                self._connect()
            for cookie in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(cookie).items():
                    if morsel.value:
                        self.cookies[name] = morsel.value
                    else:
                        self.cookies.pop(name, None)
            return response.status, response.headers, data
        raise AssertionError("unreachable")

    def get(self, path, headers=None):
        return self.request("GET", path, headers=headers)

    def csrf_token(self):
        """The CSRF cookie, fetched with a page that has a form for everybody."""
        if "csrftoken" not in self.cookies:
            self.get("/play/")
        return self.cookies["csrftoken"]

    def post(self, path, fields=(), headers=None):
        """A form post: `fields` (pairs or a dict) urlencoded, with the CSRF token."""
        pairs = list(fields.items()) if isinstance(fields, dict) else list(fields)
        body = urlencode([("csrfmiddlewaretoken", self.csrf_token()), *pairs]).encode()
        return self.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded",
                                                 **(headers or {})})
