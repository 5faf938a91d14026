"""The turn engine: a game's rules of play as one pure function.

    decide(state, command, now) -> (new state, events)

Standard library and the rules core only: no Django, no database, no clock of its
own (`now` is given), no randomness. Every change of a stored game -- a move, a pass,
Undo, a resign, a draw or takeback offer and its answer, an abort, a claim against a
gone player, a flag, a leave, the computer's chosen move, a seat taken or given back,
the start -- is a Command applied here; games.writer.apply is the only caller that
stores the result, and bots, tournaments and the analysis board are new callers of
that, not new copies.

* ``games.turn.state``    -- GameState, SeatState, PlayedMove (frozen values)
* ``games.turn.commands`` -- what may happen to a game
* ``games.turn.engine``   -- decide(): the rules of a turn, in one place, and its events;
  one module a family of commands: ``moves``, ``endings``, ``offers``, ``seats``, with
  ``timing`` (a turn's time in a state), ``record`` and ``ranking`` (what follows from
  the moves), ``checks`` (shared refusals) and ``events`` (the event dicts)
* ``games.turn.clock``    -- Clock: the only code that computes time (docs/rules.md §11.3)
* ``games.turn.refusals`` -- Refused: a command the rules refuse; nothing changes

Events are plain JSON-ready dicts, {"type": ..., ...}, in the order they happened;
games.writer numbers them with the game's version ("v") and keeps them
(games.events), so a page or a program that missed some asks for them again.
"""
