"""What daphne itself spends to deliver one websocket frame, with no Django, Channels
or channel layer: the floor under the site's cost per spectator page.

Starts one daphne serving the bare ASGI `application` below (every socket it accepts
is a page; a frame from any page sends a frame of --size bytes to every page, as a
push to a table's spectators would), opens --pages sockets, asks for --pushes pushes
one after another (each waits until every page has its frame) and prints daphne's CPU
per delivered frame (user and system, from /proc).

    .venv/bin/python benchmarks/daphne_floor.py
    .venv/bin/python benchmarks/daphne_floor.py --pages 50 --pushes 200
"""
import argparse
import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

PAGES = set()
FRAME_SIZE = int(os.environ.get("FLOOR_FRAME_SIZE", "3000"))  # set by main() for the daphne it starts


async def application(scope, receive, send):
    """The bare ASGI application daphne serves here: websockets only."""
    if scope["type"] != "websocket":
        return
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
            PAGES.add(send)
        elif message["type"] == "websocket.receive":
            text = "x" * FRAME_SIZE
            for page in list(PAGES):
                await page({"type": "websocket.send", "text": text})
        else:
            PAGES.discard(send)
            return


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def measure(port, pid, pages, pushes):
    import websockets

    sockets = []
    for _ in range(pages):
        for attempt in range(50):
            try:
                sockets.append(await websockets.connect(f"ws://127.0.0.1:{port}/", max_size=2 ** 22,
                                                        ping_interval=None))
                break
            except OSError:
                await asyncio.sleep(0.1)  # daphne still starting
        else:
            raise RuntimeError("daphne did not accept a socket")
    received = [0]

    async def read(page):
        async for _frame in page:
            received[0] += 1

    readers = [asyncio.create_task(read(page)) for page in sockets]
    await asyncio.sleep(1)
    started = cpu_seconds(pid)
    for push in range(pushes):
        await sockets[push % pages].send("push")
        while received[0] < pages * (push + 1):
            await asyncio.sleep(0.002)
    spent = cpu_seconds(pid) - started
    for page in sockets:
        await page.close()
    for reader in readers:
        reader.cancel()
    return spent


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--pushes", type=int, default=40)
    parser.add_argument("--size", type=int, default=3000, help="bytes of text per frame")
    args = parser.parse_args()
    port = free_port()
    env = dict(os.environ, FLOOR_FRAME_SIZE=str(args.size))
    daphne = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                               "daphne_floor:application"], cwd=Path(__file__).parent, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1)
        spent = asyncio.run(measure(port, daphne.pid, args.pages, args.pushes))
    finally:
        daphne.terminate()
        daphne.wait()
    delivered = args.pages * args.pushes
    load = os.getloadavg()[0]
    print(f"{args.pages} pages x {args.pushes} pushes of {args.size} bytes, load average {load:.1f}: "
          f"daphne CPU {1000 * spent / delivered:.3f} ms per delivered frame ({delivered} frames)")


if __name__ == "__main__":
    main()
