"""The learned pattern evaluation: fitted weights shipped in the package.

``learned_evaluator(geo, anti)`` returns ``evaluate(P, O)`` (centi-discs for
the mover, like ``evaluation.make_evaluator``) when weights for that board
and rule are shipped in ``games/ai/weights/``, else None.  The weights are
fitted by ``python -m games.ai.tools.train`` (see there) to the final disc margin.

File format (``<board>[-anti].bin``), little-endian, standard library only:

* header ``struct "<4sHHII8sB"``: magic ``b"RVPW"``, format version (3),
  number of stages, weights per stage (the pattern set's ``features``, then
  the stage's constant and the weight in 1/1000 of the hand-made evaluation,
  0 when it is not used: see ``PatternSet.make_evaluator``), number of
  playable squares, the board's name (ASCII, zero-padded) and 1 for Anti, 0
  for the normal rules: the file says what it was fitted for, so a file
  copied under the wrong name is refused instead of misjudging every position;
* per stage ``struct "<HH"``: its first and last number of empties;
* the weights: ``lzma``-compressed ``array("h")`` (int16 centi-discs), stage
  after stage, each the full table (mirror-image indices already expanded),
  so loading is one decompress and no per-entry work.  Version 2 files, the
  same with ``zlib``, are still read: ``lzma`` makes a fit damped toward its
  neighbouring stage (few weights left at 0) about a quarter of the size.
"""

from __future__ import annotations

import lzma
import os
import struct
import sys
import zlib
from array import array
from functools import cache
from pathlib import Path
from typing import NamedTuple

from games.rules.geometry import get_geometry

from .patterns import pattern_set

WEIGHTS_DIR = Path(__file__).with_name("weights")
MAGIC = b"RVPW"
VERSION = 3
DECOMPRESS = {2: zlib.decompress, 3: lzma.decompress}
HEADER = struct.Struct("<4sHHII8sB")
STAGE = struct.Struct("<HH")


class Weights(NamedTuple):
    board: str
    anti: bool
    squares: int  # playable squares
    stages: list[tuple[int, int, array]]  # (first empties, last empties, array("h"))


def previous_weights_dir() -> Path:
    """Where the ``"previous"`` evaluation reads its weights files: the fit a new
    one is measured against (``python -m games play --previous DIR``, which sets
    ``GAMES_AI_PREVIOUS_WEIGHTS`` for the match's processes)."""
    directory = os.environ.get("GAMES_AI_PREVIOUS_WEIGHTS")
    if not directory:
        raise ValueError("the previous evaluation reads its weights from GAMES_AI_PREVIOUS_WEIGHTS")
    return Path(directory)


def weights_name(board: str, anti: bool) -> str:
    """A weights file's name without its suffix: ``8x8``, ``8x8-anti``."""
    return f"{board}{'-anti' if anti else ''}"


def weights_path(board: str, anti: bool, directory: Path | None = None) -> Path:
    return (directory or WEIGHTS_DIR) / f"{weights_name(board, anti)}.bin"


def shipped() -> list[tuple[str, bool]]:
    """Every (board, anti) whose weights are shipped in ``WEIGHTS_DIR``."""
    return sorted((path.stem.removesuffix("-anti"), path.stem.endswith("-anti"))
                  for path in WEIGHTS_DIR.glob("*.bin"))


def write_weights(path: Path, weights: Weights) -> None:
    stages = weights.stages
    per = len(stages[0][2])
    out = [HEADER.pack(MAGIC, VERSION, len(stages), per, weights.squares,
                       weights.board.encode("ascii"), 1 if weights.anti else 0)]
    data = array("h")
    for lo, hi, w in stages:
        assert len(w) == per
        out.append(STAGE.pack(lo, hi))
        data.extend(w)
    if sys.byteorder != "little":  # pragma: no cover
        data.byteswap()
    out.append(lzma.compress(data.tobytes()))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(out))


def read_weights(path: Path) -> Weights:
    raw = path.read_bytes()
    magic, version, count, per, squares, board, anti = HEADER.unpack_from(raw)
    if magic != MAGIC or version not in DECOMPRESS:
        raise ValueError(f"{path} is not a weights file of version {' or '.join(map(str, DECOMPRESS))}")
    pos = HEADER.size
    ranges = []
    for _ in range(count):
        ranges.append(STAGE.unpack_from(raw, pos))
        pos += STAGE.size
    data = array("h")
    data.frombytes(DECOMPRESS[version](raw[pos:]))
    if sys.byteorder != "little":  # pragma: no cover
        data.byteswap()
    if len(data) != count * per:
        raise ValueError(f"{path}: {len(data)} weights, expected {count * per}")
    stages = [(lo, hi, data[k * per:(k + 1) * per]) for k, (lo, hi) in enumerate(ranges)]
    return Weights(board.rstrip(b"\0").decode("ascii"), bool(anti), squares, stages)


def stage_tables(lib_geo, stages: list[tuple[int, int, array]]) -> tuple[list, bool]:
    """(the weights per number of empties, whether the hand-made term is used)."""
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
    return by_empties, any(w[ps.features + 1] for _, _, w in stages)


def evaluator_from(lib_geo, stages: list[tuple[int, int, array]], anti: bool = False):
    """``evaluate(P, O)`` over ``stages`` (every number of empties covered)."""
    by_empties, uses_hand = stage_tables(lib_geo, stages)
    hand = None
    if uses_hand:
        from .bitboard import tables
        from .evaluation import make_evaluator

        hand = make_evaluator(tables(lib_geo), anti)
    return pattern_set(lib_geo).make_evaluator(by_empties, hand)


def shipped_stages(lib_geo, anti: bool, directory: Path | None = None):
    """The shipped weights' stages for this geometry and rule, or None (none shipped;
    a board with blocked squares has no pattern set, so none either)."""
    if pattern_set(lib_geo) is None:
        return None
    return _stages(lib_geo.board, anti, directory)


# The weights read, by (board, anti, directory): each file read once per process and
# kept for its life (a worker reads every shipped one when it starts, before any move:
# games.ai.load_shipped_weights). Kept by the board's name, not its geometry, so that
# boards with blocked squares, a geometry of their own each game, never push them out.
_read: dict[tuple[str, bool, Path | None], list | None] = {}


def _stages(board: str, anti: bool, directory: Path | None):
    key = (board, anti, directory)
    if key not in _read:
        _read[key] = _read_stages(board, anti, directory)
    return _read[key]


def _read_stages(board: str, anti: bool, directory: Path | None):
    path = weights_path(board, anti, directory)
    if not path.exists():
        return None
    weights = read_weights(path)
    squares = get_geometry(board).playable_count
    if (weights.board, weights.anti, weights.squares) != (board, anti, squares):
        raise ValueError(f"{path} holds weights for {weights.board}{' Anti' if weights.anti else ''} "
                         f"({weights.squares} squares)")
    return weights.stages


def loaded_weights() -> list[str]:
    """The shipped weights this process holds, by ``weights_name`` (a worker's report)."""
    return sorted(weights_name(board, anti) for (board, anti, directory), stages in _read.items()
                  if directory is None and stages is not None)


def learned_evaluator(lib_geo, anti: bool, directory: Path | None = None):
    """The shipped learned evaluation for this geometry and rule, or None."""
    if shipped_stages(lib_geo, anti, directory) is None:
        return None
    return _learned_evaluator(lib_geo.board, anti, directory)


@cache  # by the board's name, like the weights it reads
def _learned_evaluator(board: str, anti: bool, directory: Path | None):
    lib_geo = get_geometry(board)
    return evaluator_from(lib_geo, shipped_stages(lib_geo, anti, directory), anti)
