"""What the notification stream (social.consumers) costs on a page's socket: daphne
memory per idle connection and its idle CPU (the presence heartbeat), against a
visitor's site stream (announcements only); and the CPU a correspondence move adds (the "your
turn" notification stored and pushed, each open page of the player drawing its header's
live part again), with every player's page open.

    .venv/bin/python benchmarks/notification_socket.py --sockets 200 --moves 200

Figures in benchmarks/README.md, "The notification socket"."""
import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from livesite import Site, cpu_seconds, make_players, setup_django  # noqa: E402


def rss_kib(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def open_sockets(site, path, sessions):
    url = site.url.replace("http", "ws") + path
    sockets = []
    for session in sessions:
        signed_in = "path=" in path  # a signed-in page's site stream is the notification one
        socket = await websockets.connect(url, origin=site.url, max_size=None,
                                          additional_headers={"Cookie": f"sessionid={session}"} if signed_in else {})
        sockets.append(socket)
        if signed_in:
            await socket.recv()  # the header's live part, drawn on connect
    return sockets


async def drain(sockets, seconds):
    """Read whatever the sockets get for `seconds`: how many messages."""
    count = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for socket in sockets:
            try:
                while True:
                    await asyncio.wait_for(socket.recv(), 0.001)
                    count += 1
            except (TimeoutError, asyncio.TimeoutError):
                pass
        await asyncio.sleep(0.05)
    return count


async def idle_cost(site, path, sessions, settle, window):
    """(sockets, KiB of daphne RSS per socket, daphne CPU ms per socket per minute) with
    the sockets idle; the sockets stay open (closed by the caller), so memory freed by
    closed ones is not counted as the next ones' saving."""
    daphne = site.daphnes[0].pid
    before = rss_kib(daphne)
    sockets = await open_sockets(site, path, sessions)
    await drain(sockets, settle)
    after = rss_kib(daphne)
    cpu = cpu_seconds(daphne)
    await drain(sockets, window)
    cpu = cpu_seconds(daphne) - cpu
    return sockets, (after - before) / len(sessions), cpu * 1000 / len(sessions) / (window / 60)


async def warm_up(site, sessions):
    """A few sockets of each kind opened and closed: what the first one loads is not counted."""
    for path in ("/ws/page/?site=1", "/ws/page/?site=1&path=/"):
        for socket in await open_sockets(site, path, sessions[:10]):
            await socket.close()
    await asyncio.sleep(1)


async def close_all(sockets):
    for socket in sockets:
        await socket.close()
    await asyncio.sleep(1)


def correspondence_tables(users, pairs):
    from games import Variant
    from games.access import Viewer
    from games.models import Game
    from lobby import actions

    games = []
    for host, guest in zip(users[:pairs], users[pairs:2 * pairs]):
        table = actions.open_table(host, Variant(), time_control=(Game.TimeControl.DAYS, 86400, 0))
        actions.join(table, Viewer(user=guest))
        games.append(table.game_id)
    return games


def play_moves(game_ids, count, rng):
    """`count` moves in turn at the games (the bench process moves, as a page's daphne
    would): (this process's CPU seconds, moves made)."""
    from games.access import Viewer
    from games.models import Game
    from games.services import play_move

    made = 0
    cpu = time.process_time()
    while made < count:
        for game_id in game_ids:
            game = Game.objects.prefetch_related("seats__user").get(pk=game_id)
            if game.status != Game.Status.PLAYING:
                continue
            seat = game.seat_of(game.turn)
            moves = game.board().legal_moves
            play_move(game, rng.choice(moves), expected_ply=game.ply, viewer=Viewer(user=seat.user))
            made += 1
            if made >= count:
                break
        else:
            if not any(Game.objects.filter(pk__in=game_ids, status=Game.Status.PLAYING).values_list("pk")):
                break
    return time.process_time() - cpu, made


async def move_cost(site, sessions, game_ids, moves, rng, connected):
    """Per move: (mover's CPU ms, daphne CPU ms, pushes that reached the pages)."""
    from games import signals
    from social import receivers

    if not connected:
        signals.state_pushed.disconnect(receivers.game_pushed)
    sockets = await open_sockets(site, "/ws/page/?site=1&path=/", sessions)
    await drain(sockets, 2)
    daphne = site.daphnes[0].pid
    before = cpu_seconds(daphne)
    reader = asyncio.create_task(drain(sockets, 10_000))
    mover_cpu, made = await asyncio.to_thread(play_moves, game_ids, moves, rng)
    await asyncio.sleep(2)  # the last pushes drawn
    reader.cancel()
    daphne_cpu = cpu_seconds(daphne) - before
    for socket in sockets:
        await socket.close()
    if not connected:
        signals.state_pushed.connect(receivers.game_pushed)
    return mover_cpu * 1000 / made, daphne_cpu * 1000 / made, made


async def main_async(site, args, users, sessions):
    rng = random.Random(1)
    await warm_up(site, sessions)
    site_sockets, site_kib, site_cpu = await idle_cost(site, "/ws/page/?site=1", sessions, args.settle, args.window)
    note_sockets, note_kib, note_cpu = await idle_cost(site, "/ws/page/?site=1&path=/lobby/", sessions,
                                                       args.settle, args.window)
    note_cpu -= site_cpu  # the site sockets stayed open meanwhile
    await close_all(site_sockets + note_sockets)
    print(f"{args.sockets} idle sockets on one daphne:")
    print(f"  site socket (announcements):   {site_kib:6.1f} KiB each, {site_cpu:5.2f} ms CPU each a minute")
    print(f"  notification socket:           {note_kib:6.1f} KiB each, {note_cpu:5.2f} ms CPU each a minute")
    print("  (a signed-in page opens the notification socket in place of the site socket)")
    pairs = min(args.tables, args.sockets // 2)
    game_ids = await asyncio.to_thread(correspondence_tables, users, pairs)
    players = sessions[:2 * pairs]
    off = await move_cost(site, players, game_ids, args.moves, rng, connected=False)
    on = await move_cost(site, players, game_ids, args.moves, rng, connected=True)
    print(f"correspondence moves at {pairs} tables, both players' pages open ({off[2]} and {on[2]} moves):")
    print(f"  without notifications: mover {off[0]:5.1f} ms CPU a move, daphne {off[1]:5.1f} ms")
    print(f"  with notifications:    mover {on[0]:5.1f} ms CPU a move, daphne {on[1]:5.1f} ms")
    print(f"  added per move:        mover {on[0] - off[0]:5.1f} ms, daphne {on[1] - off[1]:5.1f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=200, help="idle pages (signed-in players) to open")
    parser.add_argument("--moves", type=int, default=200, help="correspondence moves per measurement")
    parser.add_argument("--tables", type=int, default=20, help="correspondence tables the moves are made at")
    parser.add_argument("--settle", type=float, default=5, help="seconds before memory is read")
    parser.add_argument("--window", type=float, default=30, help="seconds the idle CPU is measured over")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="notification-bench-") as scratch:
        site = Site(scratch, concurrency=1)
        try:
            setup_django(site)
            print(f"{os.cpu_count()} cores, load average before {os.getloadavg()[0]:.1f}")
            users, sessions = make_players(args.sockets)
            asyncio.run(main_async(site, args, users, sessions))
        finally:
            site.stop()


if __name__ == "__main__":
    main()
