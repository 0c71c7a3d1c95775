# The exceptions the scoring core raises; all are ValueErrors with a clear message.


class CardError(ValueError):
    """A card text that names no known card; the message names the bad token.

    `code` names the refusal and `words` are the words it is about (the bad
    token, the card as given), for the laptop to say it in its language (the
    message is English); code None when there is no such name.
    """

    def __init__(self, message, code=None, words=()):
        super().__init__(message)
        self.code = code
        self.words = words


class ScoreError(ValueError):
    """Input that a game refuses; the game is left exactly as it was.

    `code` names the refusal for a screen to translate (the message is English,
    for the laptop and logs); "refused" when no more exact word applies.
    """

    def __init__(self, message, code="refused"):
        super().__init__(message)
        self.code = code


class RecordError(ValueError):
    """Bytes that are not a well-formed event record or journal frame."""
