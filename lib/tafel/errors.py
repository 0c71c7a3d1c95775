# The exceptions the scoring core raises; all are ValueErrors with a clear message.


class CardError(ValueError):
    """A card text that names no known card; the message names the bad token."""


class ScoreError(ValueError):
    """Input that a game refuses; the game is left exactly as it was."""


class RecordError(ValueError):
    """Bytes that are not a well-formed event record or journal frame."""
