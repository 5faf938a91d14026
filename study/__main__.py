"""Command line: ``python -m study openings <transcript>`` names the opening at
every ply; ``python -m study convert <file> --to ggf|transcript`` converts a GGF
file, a WTHOR database (``.wtb``, with ``--players``/``--tournaments`` name
files) or a file of transcripts (one game a line).  No Django needed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from games.rules import Variant

from .formats.errors import FormatError
from .formats.ggf import game_from_board, iter_ggf, write_ggf
from .formats.transcripts import read_transcript
from .formats.wthor import iter_games, read_players, read_tournaments
from .openings import name_of


def _openings(args) -> int:
    board = read_transcript(args.transcript)
    moves = list(board.history)
    for ply, (move, opening) in enumerate(zip(moves, name_of(moves)), 1):
        print(f"{ply:>3} {move:<5} {opening.name(args.language) if opening else ''}".rstrip())
    return 0


def _games(path: Path, args):
    """(transcript board, properties) of every game of the file at ``path``."""
    if path.suffix.lower() == ".wtb":
        players = read_players(Path(args.players).read_bytes()) if args.players else None
        tournaments = read_tournaments(Path(args.tournaments).read_bytes()) if args.tournaments else None
        with path.open("rb") as stream:
            for game in iter_games(stream, players, tournaments):
                yield read_transcript(list(game.moves)), {"black": str(game.black), "white": str(game.white),
                                                          "place": str(game.tournament)}
        return
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("(;"):
        for game in iter_ggf(text):
            yield game, None
        return
    variant = Variant(board=args.board)
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                yield read_transcript(line, variant), {}
            except FormatError as exc:
                raise exc.in_game(number) from None


def _convert(args) -> int:
    out = sys.stdout
    for game, props in _games(Path(args.file), args):
        if props is None:  # read from GGF
            out.write(write_ggf(game) if args.to == "ggf" else game.transcript + "\n")
        elif args.to == "ggf":
            out.write(write_ggf(game_from_board(game, **props)))
        else:
            out.write(game.transcript() + "\n")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m study", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("openings", help="the opening at every ply of a transcript (8x8)")
    p.add_argument("transcript")
    p.add_argument("--language", default="en", choices=("en", "de"))
    p.set_defaults(run=_openings)
    p = sub.add_parser("convert", help="convert a GGF, WTHOR or transcript file")
    p.add_argument("file")
    p.add_argument("--to", required=True, choices=("ggf", "transcript"))
    p.add_argument("--board", default="8x8", help="board of a transcript file (6x6, 8x8, 10x10, octagon)")
    p.add_argument("--players", help="WTHOR player names (.JOU)")
    p.add_argument("--tournaments", help="WTHOR tournament names (.TRN)")
    p.set_defaults(run=_convert)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (FormatError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
