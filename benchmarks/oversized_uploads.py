"""daphne's resident memory while many visitors upload files far too large at once.

Starts one daphne and one Celery worker (and a private Redis) on a scratch SQLite
database, then posts --uploads bodies of --megabytes each, all at once, to the import
page as a browser's form would (multipart, with the CSRF token), with a Content-Length
or, with --chunked, without one. Prints daphne's RSS before, its peak while the
uploads run (sampled every 10 ms) and after, with each answer's status.

    nice -n 10 .venv/bin/python benchmarks/oversized_uploads.py --uploads 20 --megabytes 30
"""
import argparse
import collections
import http.client
import tempfile
import threading
import time
import urllib.request

from livesite import Site  # benchmarks/ is on sys.path when run as a script

BOUNDARY = "----oversized"
CHUNK = b"e6f4" * (64 * 1024 // 4)


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        kilobytes = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return kilobytes / 1024


def csrf_token(url):
    with urllib.request.urlopen(url + "/games/import/", timeout=30) as response:
        cookie = next(value for name, value in response.getheaders()
                      if name.lower() == "set-cookie" and value.startswith("csrftoken="))
    return cookie.split(";", 1)[0].split("=", 1)[1]


def upload(port, token, megabytes, chunked):
    """Posts the file; returns the answer's status or the error that ended the upload."""
    head = (f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"csrfmiddlewaretoken\"\r\n\r\n{token}\r\n"
            f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"game.txt\"\r\n"
            "Content-Type: text/plain\r\n\r\n").encode()
    tail = f"\r\n--{BOUNDARY}--\r\n".encode()
    chunks = megabytes * 1024 * 1024 // len(CHUNK)

    def body():
        yield head
        for _ in range(chunks):
            yield CHUNK
        yield tail

    headers = {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}", "Cookie": f"csrftoken={token}",
               "Referer": f"http://127.0.0.1:{port}/games/import/", "Accept-Language": "de"}
    if not chunked:
        headers["Content-Length"] = str(len(head) + chunks * len(CHUNK) + len(tail))
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    try:
        try:
            connection.request("POST", "/games/import/", body(), headers, encode_chunked=chunked)
        except OSError:
            pass  # the server answered and closed before the whole body was sent; read its answer
        response = connection.getresponse()
        response.read()
        return str(response.status)
    except OSError as error:
        return type(error).__name__
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=20)
    parser.add_argument("--megabytes", type=int, default=30)
    parser.add_argument("--chunked", action="store_true", help="no Content-Length (Transfer-Encoding: chunked)")
    args = parser.parse_args()
    site = Site(tempfile.mkdtemp(prefix="oversized-"), concurrency=1)
    try:
        pid = site.daphnes[0].pid
        token = csrf_token(site.url)
        time.sleep(1)
        before = rss_mb(pid)
        statuses = collections.Counter()
        lock = threading.Lock()

        def one():
            status = upload(site.port, token, args.megabytes, args.chunked)
            with lock:
                statuses[status] += 1

        threads = [threading.Thread(target=one) for _ in range(args.uploads)]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        peak = before
        while any(thread.is_alive() for thread in threads):
            peak = max(peak, rss_mb(pid))
            time.sleep(0.01)
        took = time.monotonic() - started
        time.sleep(2)
        after = rss_mb(pid)
        kind = "chunked" if args.chunked else "with Content-Length"
        print(f"{args.uploads} concurrent uploads of {args.megabytes} MB ({kind}) in {took:.1f} s: "
              f"answers {dict(statuses)}")
        print(f"daphne RSS: before {before:.0f} MB, peak {peak:.0f} MB, after {after:.0f} MB")
    finally:
        site.stop()


if __name__ == "__main__":
    main()
