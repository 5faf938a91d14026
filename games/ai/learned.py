"""The learned pattern evaluation: fitted weights shipped in the package.

``learned_evaluator(geo, anti)`` returns ``evaluate(P, O)`` (centi-discs for
the mover, like ``evaluation.make_evaluator``) when weights for that board
and rule are shipped in ``games/ai/weights/``, else None.  The weights are
fitted by ``python -m games.ai.train`` (see there) to the final disc margin.

File format (``<board>[-anti].bin``), little-endian, standard library only:

* header ``struct "<4sHHII"``: magic ``b"RVPW"``, format version (1),
  number of stages, weights per stage (the pattern set's ``features``, then
  the stage's constant and the weight in 1/1000 of the hand-made evaluation,
  0 when it is not used: see ``PatternSet.make_evaluator``), number of
  playable squares;
* per stage ``struct "<HH"``: its first and last number of empties;
* the weights: ``zlib``-compressed ``array("h")`` (int16 centi-discs), stage
  after stage, each the full table (mirror-image indices already expanded),
  so loading is one decompress and no per-entry work.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from functools import lru_cache
from pathlib import Path

from .patterns import pattern_set

WEIGHTS_DIR = Path(__file__).with_name("weights")
MAGIC = b"RVPW"
VERSION = 1
HEADER = struct.Struct("<4sHHII")
STAGE = struct.Struct("<HH")


def weights_path(board: str, anti: bool, directory: Path | None = None) -> Path:
    return (directory or WEIGHTS_DIR) / f"{board}{'-anti' if anti else ''}.bin"


def write_weights(path: Path, stages: list[tuple[int, int, array]], squares: int) -> None:
    """``stages``: (first empties, last empties, array("h") of the stage's weights)."""
    per = len(stages[0][2])
    out = [HEADER.pack(MAGIC, VERSION, len(stages), per, squares)]
    data = array("h")
    for lo, hi, w in stages:
        assert len(w) == per
        out.append(STAGE.pack(lo, hi))
        data.extend(w)
    if sys.byteorder != "little":  # pragma: no cover
        data.byteswap()
    out.append(zlib.compress(data.tobytes(), 9))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(out))


def read_weights(path: Path) -> tuple[list[tuple[int, int, array]], int]:
    raw = path.read_bytes()
    magic, version, count, per, squares = HEADER.unpack_from(raw)
    if magic != MAGIC or version != VERSION:
        raise ValueError(f"{path} is not a version {VERSION} weights file")
    pos = HEADER.size
    ranges = []
    for _ in range(count):
        ranges.append(STAGE.unpack_from(raw, pos))
        pos += STAGE.size
    data = array("h")
    data.frombytes(zlib.decompress(raw[pos:]))
    if sys.byteorder != "little":  # pragma: no cover
        data.byteswap()
    if len(data) != count * per:
        raise ValueError(f"{path}: {len(data)} weights, expected {count * per}")
    stages = [(lo, hi, data[k * per:(k + 1) * per]) for k, (lo, hi) in enumerate(ranges)]
    return stages, squares


def evaluator_from(lib_geo, stages: list[tuple[int, int, array]], anti: bool = False):
    """``evaluate(P, O)`` over ``stages`` (every number of empties covered)."""
    ps = pattern_set(lib_geo)
    squares = lib_geo.playable_count
    by_empties = [None] * (squares + 1)
    for lo, hi, w in stages:
        if len(w) != ps.features + 2:
            raise ValueError("weights do not match the pattern set")
        for e in range(lo, min(hi, squares) + 1):
            by_empties[e] = w
    if any(w is None for w in by_empties):
        raise ValueError("the stages do not cover every number of empties")
    hand = None
    if any(w[ps.features + 1] for _, _, w in stages):
        from .bitboard import tables
        from .evaluation import make_evaluator

        hand = make_evaluator(tables(lib_geo), anti)
    return ps.make_evaluator(by_empties, hand)


@lru_cache(maxsize=16)
def learned_evaluator(lib_geo, anti: bool):
    """The shipped learned evaluation for this geometry and rule, or None."""
    if pattern_set(lib_geo) is None:
        return None
    path = weights_path(lib_geo.board, anti)
    if not path.exists():
        return None
    stages, squares = read_weights(path)
    if squares != lib_geo.playable_count:
        return None
    return evaluator_from(lib_geo, stages, anti)
