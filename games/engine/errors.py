"""The one exception the engine raises when it refuses something."""

from __future__ import annotations


class IllegalMove(Exception):
    """A refused action: ``code`` is the API contract's machine-readable code.

    ``status`` is the HTTP status the contract gives that code: 409 when the game's state does not
    allow the action (not your turn, game not active), 422 when the rules forbid the move, 400 when
    the action itself is malformed.
    """

    def __init__(self, code: str, detail: str, status: int = 422) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.detail!r})"
