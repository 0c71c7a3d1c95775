# What the laptop remembers per device between exports: the last cursor, and the games of an export cut short.
#
# In the user's data directory, folder devices/ (each laptop its own: the
# cursor is this laptop's, whatever other laptops export or mark):
#   <device id>.json           {"cursor": "G:S/N@E", "saved": ISO time}: the DONE cursor of the last
#                              whole export; N@E is the device's change log, and the next
#                              `--since` asks for every game changed after change N of epoch E
#                              ("G:S" alone: from a tafel or firmware before the change log)
#   <device id>.spool.jsonl    an export in progress: a header line, then one line per game that came
#                              whole ({"game": {...}, "cursor": "G:S" or null, "size": journal bytes
#                              to mark it with, or null for a live game}), flushed as it comes
# A spool outlives the export only when the export was cut short (the device
# went away, the laptop's process was killed): the next `tafel export --since`
# marks the spooled games on the device, asks again from the cursor the cut
# export began with and writes the spooled games and the new ones into one
# file (at worst a game is fetched twice: the newer copy wins). Only with a
# firmware without a change log does the spool's cursor follow the games: that
# game's "G:S" as long as every game before it came whole (docs/protocol.md,
# EXPORT, SINCE).
import json
import os
import re
import time
from pathlib import Path

from ..isotime import iso
from ..paths import user_data_dir


def _safe(device_id):
    return re.sub(r"[^A-Za-z0-9._-]", "_", device_id) or "_"


class DeviceState:
    def __init__(self, device_id, root=None):
        self.device_id = device_id
        folder = Path(root) if root is not None else user_data_dir() / "devices"
        self.path = folder / (_safe(device_id) + ".json")
        self.spool_path = folder / (_safe(device_id) + ".spool.jsonl")
        self._spool = None

    # ---- the cursor ------------------------------------------------------------------

    def cursor(self):
        """The last whole export's cursor "G:S", or None."""
        try:
            with open(self.path, encoding="utf-8") as src:
                return json.load(src).get("cursor")
        except (OSError, ValueError, AttributeError):
            return None

    def save_cursor(self, cursor):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"cursor": cursor, "saved": iso(int(time.time()))}) + "\n", encoding="utf-8")
        os.replace(tmp, self.path)

    # ---- the spool ---------------------------------------------------------------------

    def spooled(self):
        """(games by id, resume cursor or None, {id: journal size} of the games to
        mark) of an export cut short; None if there is none."""
        try:
            with open(self.spool_path, encoding="utf-8") as src:
                lines = src.read().splitlines()
        except OSError:
            return None
        games, cursor, marks = {}, None, {}
        for number, line in enumerate(lines):
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # the line being written when the process died
            if number == 0:
                cursor = entry.get("base")
                continue
            game = entry["game"]
            old = games.get(game["id"])
            if old is None or (old.get("records") or 0) <= (game.get("records") or 0):
                games[game["id"]] = game
                marks.pop(game["id"], None)
                if entry.get("size") is not None:
                    marks[game["id"]] = entry["size"]
            if entry.get("cursor"):
                cursor = entry["cursor"]
        return games, cursor, marks

    def begin(self, base_cursor, keep=False):
        """Start spooling an export that asks from base_cursor (None: all games);
        keep=True appends to the spool of a resumed export."""
        self.spool_path.parent.mkdir(parents=True, exist_ok=True)
        resume = keep and self.spool_path.exists()
        torn = resume and not self.spool_path.read_bytes().endswith(b"\n")
        self._spool = open(self.spool_path, "a" if resume else "w", encoding="utf-8")
        if torn:
            self._spool.write("\n")  # end the line a killed process left half written
        if not resume:
            self._write({"spool": 1, "device": self.device_id, "base": base_cursor, "started": iso(int(time.time()))})

    def add(self, game, cursor=None, size=None):
        """A game that came whole; size: its journal bytes, to mark it (None: do not, it is live)."""
        self._write({"game": game, "cursor": cursor, "size": size})

    def _write(self, entry):
        self._spool.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._spool.flush()

    def end(self, done):
        """Close the spool; done=True removes it (the export was written whole)."""
        if self._spool is not None:
            self._spool.close()
            self._spool = None
        if done:
            try:
                self.spool_path.unlink()
            except FileNotFoundError:
                pass

    def drop(self):
        self.end(True)
