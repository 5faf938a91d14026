"""Computer analysis of a stored game: for every move, the best move and what the
played move lost, at Normal strength.

Each position before a move is weighed by `games.ai.analyse` (Normal-strength
search to a fixed depth; exact in small endgames), so the marks do not depend on
how busy the worker was. A move's loss is the value of the best move minus the
value of the move played, in stones from the mover's point of view. Forced moves
and passes are not weighed; the computer's own moves are weighed but not judged
(NOT_JUDGED, below).

The work runs in the Celery task `games.analyse_game`, a couple of seconds at a
time (CHUNK_SECONDS): the task re-enqueues itself until the game is done, so an
analysis never keeps a worker from computer moves for long. Every ply is written
with a conditional update on (`done`, `history`), so a task delivered twice
(acks_late) or two racing tasks never write a ply twice, and a restarted analysis
is never mixed with an old one. Progress is read by the review page, which polls.
"""
import logging
import time
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import Board, scheduling
from games.ai import analyse
from games.models import GameAnalysis, Move
from games.presentation import colour_name

log = logging.getLogger(__name__)

# A guard only, per position (for the solver's try and for the search each):
# several times the slowest position's CPU at the fixed depths, so a worker several
# times slower still gives the same values (benchmarks/README.md, "The review's
# analysis").
TIME_LIMIT = 3.0
# A task analyses this long, then hands the rest to a fresh task on the queue.
CHUNK_SECONDS = 2.0
# A move that loses at least this many stones can be marked as one of the worst (checked
# against exact values: benchmarks/README.md, "The review's analysis")...
MISTAKE_THRESHOLD = 4.0
# ...and this many of the largest losses of a game are marked.
WORST_SHOWN = 3
# An analysis whose progress has not moved for this long lost its task; asking again restarts it.
STALLED_AFTER = timedelta(seconds=60)

Status = GameAnalysis.Status


class AnalysisRefused(Exception):
    """The analysis cannot be started; the message is for the player."""


def history_of(game):
    """The game's moves as stored ('d3 c5 ... pass ...'): what an analysis is of."""
    return " ".join(game.moves.order_by("ply").values_list("square", flat=True))


def is_stalled(analysis, now=None):
    now = now or timezone.now()
    return analysis.status in (Status.QUEUED, Status.RUNNING) and analysis.updated_at < now - STALLED_AFTER


def request_analysis(game):
    """Queue the analysis of a finished game; returns (analysis, queued_now).

    Nothing is queued when a current analysis is done or under way. A failed,
    stalled or stale one (the game changed since) starts again from the first move.
    """
    if not game.is_over:
        raise AnalysisRefused(_("Only a finished game can be analysed."))
    history = history_of(game)
    total = len(history.split())
    fresh = {"status": Status.QUEUED, "history": history, "total": total, "done": 0,
             "entries": [], "time_limit": TIME_LIMIT, "finished_at": None}
    with transaction.atomic():
        analysis, created = GameAnalysis.objects.get_or_create(game=game, defaults=fresh)
        if not created:
            current = analysis.history == history
            if current and analysis.status == Status.DONE:
                return analysis, False
            if current and analysis.status in (Status.QUEUED, Status.RUNNING) and not is_stalled(analysis):
                return analysis, False
            restarted = GameAnalysis.objects.filter(
                pk=analysis.pk, updated_at=analysis.updated_at, status=analysis.status,
            ).update(updated_at=timezone.now(), **fresh)
            if not restarted:  # another request restarted it a moment ago
                analysis.refresh_from_db()
                return analysis, False
        pk = analysis.pk
        transaction.on_commit(lambda: enqueue(pk))
    analysis.refresh_from_db()
    return analysis, True


def enqueue(analysis_id):
    scheduling.analyse_game(analysis_id)


def weigh_move(board, played, time_limit=TIME_LIMIT):
    """The analysis entry of `played` in the position `board` (before the move)."""
    if played == "pass" or len(board.legal_moves) <= 1:
        return {"forced": True}
    values = analyse(board, time_limit=time_limit)
    value_of = dict(values)
    if not values or played not in value_of:  # cannot happen for a legal move; never stall on it
        return {"forced": True}
    best, best_value = values[0]
    played_value = value_of[played]
    if played_value >= best_value:
        best, best_value = played, played_value  # a tie: the move played was as good as any
    return {"best": best, "best_value": best_value, "played_value": played_value,
            "loss": round(max(0.0, best_value - played_value), 2)}


def run_chunk(analysis_id, budget=CHUNK_SECONDS):
    """Analyse plies of one analysis for about `budget` seconds.

    Returns True when plies remain (the caller queues the next chunk). Stops
    quietly when the analysis is gone, finished, restarted or taken over.
    """
    started = time.monotonic()
    analysis = GameAnalysis.objects.select_related("game").filter(pk=analysis_id).first()
    if analysis is None or analysis.status in (Status.DONE, Status.FAILED):
        return False
    moves = analysis.history.split()
    history = analysis.history
    mine = GameAnalysis.objects.filter(pk=analysis.pk, history=history)
    try:
        board = Board(analysis.game.variant_obj)
        for move in moves[:analysis.done]:
            board.push(move)
        entries, done = list(analysis.entries), analysis.done
        mine.filter(status=Status.QUEUED).update(status=Status.RUNNING, updated_at=timezone.now())
        while done < len(moves):
            entry = weigh_move(board, moves[done], analysis.time_limit)
            if not mine.filter(done=done).update(done=done + 1, entries=entries + [entry],
                                                 status=Status.RUNNING, updated_at=timezone.now()):
                return False  # restarted, or another task wrote this ply first
            entries.append(entry)
            board.push(moves[done])
            done += 1
            if done < len(moves) and time.monotonic() - started >= budget:
                return True
    except Exception:
        log.exception("analysis %s failed", analysis_id)
        mine.update(status=Status.FAILED, updated_at=timezone.now())
        return False
    mine.filter(done=done).update(status=Status.DONE, finished_at=timezone.now(), updated_at=timezone.now())
    return False


# Moves the computer made (for its own seat, or for a player out of time or gone) are
# not judged. The analysis searches as deep as Normal plays, to a fixed depth so that
# the marks never depend on how busy the worker was. Hard plays on a clock (2 s a
# move by default), so a fixed search stronger than Hard would take more than that
# for every position: minutes for a 60-move game, on a worker that also makes the
# computer's moves. Judged by the analysis, Normal's moves come out at about 0.0
# stones lost and Hard's at less than they really lose; neither says anything, so
# the summary, the marks and the move list rate only the moves people made.
NOT_JUDGED = {Move.MadeBy.COMPUTER, Move.MadeBy.TIMEOUT, Move.MadeBy.LEAVER}


def worst_mistakes(entries, threshold=MISTAKE_THRESHOLD, count=WORST_SHOWN, judged=None):
    """Plies (1-based) of the largest losses of at least `threshold`, worst first, among
    the plies in `judged` (every ply when None)."""
    losses = [(entry.get("loss") or 0, ply) for ply, entry in enumerate(entries, 1)
              if not entry.get("forced") and (judged is None or ply in judged)]
    worst = sorted((item for item in losses if item[0] >= threshold), key=lambda item: (-item[0], item[1]))
    return [ply for _loss, ply in worst[:count]]


def summary(analysis, history, movers):
    """What the review page shows of an analysis, or None when there is none.

    `movers` lists who made each ply (objects with `colour` and `made_by`, like Move
    rows): the per-colour averages, the marks and the entries leave out the moves the
    computer made (NOT_JUDGED).
    """
    if analysis is None:
        return None
    stale = analysis.history != history
    entries = analysis.entries if not stale else []
    judged = {ply for ply, mover in enumerate(movers, 1) if mover.made_by not in NOT_JUDGED}
    averages = {}
    for ply, (entry, mover) in enumerate(zip(entries, movers), 1):
        if ply in judged and not entry.get("forced"):
            averages.setdefault(mover.colour, []).append(entry.get("loss") or 0)
    return {
        "status": analysis.status,
        "running": not stale and analysis.status in (Status.QUEUED, Status.RUNNING) and not is_stalled(analysis),
        "stalled": not stale and is_stalled(analysis),
        "failed": not stale and analysis.status == Status.FAILED,
        "complete": not stale and analysis.status == Status.DONE,
        "stale": stale,
        "done": analysis.done if not stale else 0,
        "total": analysis.total,
        "percent": int(100 * analysis.done / analysis.total) if analysis.total and not stale else 0,
        "entries": {ply: entry for ply, entry in enumerate(entries, 1) if ply in judged},
        "mistakes": worst_mistakes(entries, judged=judged) if not stale and analysis.status == Status.DONE else [],
        "averages": [{"colour": colour, "name": colour_name(colour), "average": round(sum(losses) / len(losses), 1)}
                     for colour, losses in averages.items()],
        "computer_moves": len(judged) < len(movers),
    }
