"""Pairing times: a Swiss round by the Dutch system (py4swiss) and an arena wave.

A Swiss of N players (ratings drawn at random) has --played rounds behind it, paired
cheaply by score (no rematch, colours alternated) with random results, so the round
timed is a mid-tournament one; then tournaments.pairing.swiss pairs the next round,
--repeat times. An arena wave pairs --arena waiting players with random ranks and
ratings, half of them just off a game with one another (--neighbours and --group set
arena.NEIGHBOURS and arena.GROUP). Prints the median wall-clock
and CPU time of each (the CPU time is what a Celery worker spends), and the wave's total
cost (`arena.cost`: lower is closer pairs).

    .venv/bin/python benchmarks/pairing.py                                  # 50, 200, 1000 players; 500 waiting
    .venv/bin/python benchmarks/pairing.py --swiss 50 200 --played 3 --repeat 3
"""
import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tournaments.pairing import arena, swiss  # noqa: E402
from tournaments.pairing.records import Bye, Entrant, Game, Outcome  # noqa: E402

OUTCOMES = (Outcome.FIRST_WINS, Outcome.SECOND_WINS, Outcome.DRAW)


def history(count, played, rnd):
    """Entrants and `played` rounds of games paired by score, no rematch, colours alternated."""
    entrants = [Entrant(number, rnd.randint(1200, 2400)) for number in range(1, count + 1)]
    score = {e.id: 0.0 for e in entrants}
    firsts = {e.id: 0 for e in entrants}
    met, games, byes = set(), [], []
    for number in range(1, played + 1):
        waiting = sorted(score, key=lambda id: (-score[id], id))
        if len(waiting) % 2:
            bye = next(id for id in reversed(waiting) if all(b.player != id for b in byes))
            waiting.remove(bye)
            byes.append(Bye(number, bye, 1.0))
            score[bye] += 1
        while waiting:
            a = waiting.pop(0)
            b = next((id for id in waiting if frozenset((a, id)) not in met), waiting[0])
            waiting.remove(b)
            first, second = (a, b) if firsts[a] <= firsts[b] else (b, a)
            outcome = rnd.choice(OUTCOMES)
            games.append(Game(number, first, second, outcome, 34, 30))
            met.add(frozenset((a, b)))
            firsts[first] += 1
            for player, points in zip((first, second), outcome.points):
                score[player] += points
    return entrants, games, byes


def timed(run, repeat):
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = run()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return result, statistics.median(walls), statistics.median(cpus)


def waiting_players(count, rnd):
    ranks = list(range(1, count + 1))
    rnd.shuffle(ranks)
    ids = list(range(1, count + 1))
    last = {a: b for x, y in zip(ids[:count // 2:2], ids[1:count // 2:2]) for a, b in ((x, y), (y, x))}
    return [arena.Waiting(id, rank, rnd.randint(1000, 2600), last.get(id), rnd.randint(0, 4), rnd.randint(0, 4))
            for id, rank in zip(ids, ranks)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--swiss", type=int, nargs="*", default=[50, 200, 1000], help="players in each Swiss")
    parser.add_argument("--played", type=int, default=3, help="rounds played before the one timed")
    parser.add_argument("--arena", type=int, default=500, help="players waiting in the arena wave")
    parser.add_argument("--neighbours", type=int, default=arena.NEIGHBOURS, help="arena candidates a player")
    parser.add_argument("--group", type=int, default=arena.GROUP, help="arena players matched at a time")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    arena.NEIGHBOURS, arena.GROUP = args.neighbours, args.group
    print("| what | players | games | wall s | CPU s |\n| --- | --- | --- | --- | --- |")
    for count in args.swiss:
        entrants, games, byes = history(count, args.played, rnd)
        settings = swiss.Settings(rounds=args.played + 2)
        round_, wall, cpu = timed(lambda: swiss.pair_round(entrants, games, byes, args.played + 1, settings),
                                  args.repeat)
        print(f"| Swiss round {args.played + 1} | {count} | {len(round_.games)} | {wall:.2f} | {cpu:.2f} |", flush=True)
    if args.arena:
        waiting = waiting_players(args.arena, rnd)
        pairs, wall, cpu = timed(lambda: arena.pair_wave(waiting), args.repeat)
        by_id = {player.id: player for player in waiting}
        total = sum(arena.cost(by_id[a], by_id[b], args.arena) for a, b in pairs)
        print(f"| arena wave (cost {total}) | {args.arena} | {len(pairs)} | {wall:.2f} | {cpu:.2f} |", flush=True)


if __name__ == "__main__":
    main()
