"""The clock that time limits are measured on.

Wall time (``time.monotonic``) by default: a time limit is a promise to the
player.  Benchmarks on a busy shared machine may switch to the process's CPU
time (``use_cpu_clock(True)``, ``--cpu-clock`` on the command line) so that a
budget buys the same search whatever else runs; they must say so when they
report results.
"""

import time

_cpu = False


def use_cpu_clock(flag: bool = True) -> None:
    global _cpu
    _cpu = bool(flag)


def cpu_clock() -> bool:
    return _cpu


def now() -> float:
    return time.process_time() if _cpu else time.monotonic()
