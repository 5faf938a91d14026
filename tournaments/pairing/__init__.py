"""Pairing, scoring and tie-breaks of tournaments, in pure Python (no Django).

One concept a module:

- `records`: the stored results every kind reads (games, byes, entrants).
- `swiss`: a Swiss round by FIDE's Dutch system, through py4swiss.
- `trf`: a Swiss written as a FIDE TRF(x), the file py4swiss (and bbpPairings) read.
- `round_robin`: Berger tables, single or double.
- `arena`: waves of waiting players paired by a maximum-weight matching; arena scores.
- `tables`: rounds at tables of three or four, scored by place.
- `standings`: scores and tie-breaks recomputed from the records.

Colours: the pairing libraries speak chess, where White moves first. Here "first" is
the player who moves first (Black in Othello) and "second" the other; the libraries'
White is our first player.
"""
