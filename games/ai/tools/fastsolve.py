"""The exact endgame solver in C (``fastsolve.c``), for the training command.

``EndgameSolver`` (pure Python) is slow at 24 empties.  The held-out test set
(``python -m games.ai.tools.train testset --fast``) is labelled by this one: the
same rules and scores, nearly the same search, many times the speed (see
benchmarks/README.md).  It is compiled at
first use by the machine's C compiler (``cc``, gcc or clang: it needs
``unsigned __int128``) into the temporary directory and loaded with
``ctypes``.  The site and the computer players never use it: ``games.ai``
stays standard library and needs no compiler.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

from ..bitboard import Tables

SOURCE = Path(__file__).with_name("fastsolve.c")
SQUARES = 128  # the C side's per-square arrays
MASK64 = (1 << 64) - 1


class CompilerMissing(RuntimeError):
    """No C compiler on this machine: the fast solver cannot be built."""


@lru_cache(maxsize=1)
def _library() -> ctypes.CDLL:
    code = SOURCE.read_bytes()
    built = Path(tempfile.gettempdir()) / f"reversi-fastsolve-{hashlib.sha256(code).hexdigest()[:16]}.so"
    if not built.exists():
        compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
        if not compiler:
            raise CompilerMissing("the fast solver needs a C compiler (cc, gcc or clang)")
        # a file of this process's own, renamed into place: pool workers may build at once
        partial = built.with_suffix(f".{os.getpid()}.tmp")
        subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", str(partial), str(SOURCE)], check=True)
        os.replace(partial, built)
    lib = ctypes.CDLL(str(built))
    u64, i32 = ctypes.c_uint64, ctypes.c_int
    lib.setup.argtypes = [u64] * 6 + [i32, i32, ctypes.POINTER(i32), ctypes.POINTER(i32), i32]
    lib.setup.restype = i32
    lib.solve.argtypes = [u64] * 4 + [ctypes.POINTER(ctypes.c_longlong)]
    lib.solve.restype = i32
    return lib


class FastSolver:
    """``value(P, O)``: the exact value for the mover, like ``EndgameSolver.value``.

    The C side holds one board and one table at a time (module state): making
    an instance sets them up afresh, so only the newest instance of a process
    may be used (the training command makes one per position it solves)."""

    def __init__(self, geo: Tables, *, anti: bool = False):
        self.lib = _library()
        self.nodes = 0
        region = (ctypes.c_int * SQUARES)(*geo.region_of)
        prio = (ctypes.c_int * SQUARES)(*geo.shallow_priority)
        halves = []
        for mask in (geo.playable, geo.corners, geo.x_squares):
            halves += [mask & MASK64, mask >> 64]
        if not self.lib.setup(*halves, geo.stride, max(geo.width, geo.height), region, prio, int(anti)):
            raise MemoryError("the fast solver's transposition table")

    def value(self, P: int, O: int) -> int:
        nodes = ctypes.c_longlong()
        value = self.lib.solve(P & MASK64, P >> 64, O & MASK64, O >> 64, ctypes.byref(nodes))
        self.nodes += nodes.value
        return value
