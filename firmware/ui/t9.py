# Multi-tap (T9) letters on the keypad: repeat a key to cycle, a pause or another key commits.
from micropython import const

from tafel.names import MAX_NAME

LETTERS = {
    "2": "ABCÄ2", "3": "DEF3", "4": "GHI4", "5": "JKL5", "6": "MNOÖ6",
    "7": "PQRSß7", "8": "TUVÜ8", "9": "WXYZ9", "0": " 0", "1": "&-.1",
}
_COMMIT_MS = const(1000)


class MultiTap:
    """Builds a name from digit keys; words start upper case, the rest is lower case."""

    def __init__(self, text="", letters=LETTERS, max_len=MAX_NAME, names=True):
        """letters: key -> the characters it cycles through; names: False types them as
        they are (Wi-Fi names, passwords), True with a name's capitals (see _letter)."""
        self.text = text
        self.letters = letters
        self.max_len = max_len
        self.names = names
        self.pending = None  # key being cycled, or None
        self.turn = 0
        self.since = 0

    def shown(self):
        """The name as it should be displayed, the letter being chosen included."""
        if self.pending is None:
            return self.text
        return self.text + self._letter()

    def full(self):
        """Whether the text is as long as it may be (a further letter key is refused)."""
        return self.pending is None and len(self.text) >= self.max_len

    def key(self, k, now):
        """Feed one key; returns True if the shown text changed."""
        if k in self.letters:
            if k == self.pending and now - self.since < _COMMIT_MS:
                self.turn = (self.turn + 1) % len(self.letters[k])
            else:
                self.commit()
                if len(self.text) >= self.max_len:
                    return False
                self.pending = k
                self.turn = 0
            self.since = now
            return True
        if k == "*":
            if self.pending is not None:
                self.pending = None
            elif self.text:
                self.text = self.text[:-1]
            else:
                return False
            return True
        return False

    def tick(self, now):
        """Commit the letter being chosen once the pause is long enough."""
        if self.pending is not None and now - self.since >= _COMMIT_MS:
            self.commit()
            return True
        return False

    def commit(self):
        if self.pending is not None:
            self.text += self._letter()
            self.pending = None

    def _letter(self):
        ch = self.letters[self.pending][self.turn]
        if not self.names:
            return ch
        if self.text and self.text[-1] != " " and "A" <= ch <= "Z":
            return chr(ord(ch) + 32)
        return _LOWER.get(ch, ch) if self.text and self.text[-1] != " " else ch


_LOWER = {"Ä": "ä", "Ö": "ö", "Ü": "ü"}
