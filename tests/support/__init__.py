"""The suite's shared support: the one place test modules import helpers from.

- ``players``: players with real tokens and clients that send them;
- ``table``: one ``Table``, a started game played through HTTP, and the truth read from the
  database; the random player is ``games.engine.bots.choose``;
- ``scenario``: a game of the rules engine dealt from a given deck (``decks``), checked after
  every step (``cards``);
- ``visibility``, ``concurrency``, ``timeouts``, ``world``, ``deployment``: the checks and setups
  of one suite each, kept here so that no test module imports another.
"""
