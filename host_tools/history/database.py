# The history across evenings and devices: exports imported into one SQLite database.
#
# A game is keyed by (device id, game id): devices never reuse a game id, so
# several devices merge without clashes. Nothing in a file is believed that
# its records do not give: every game is rebuilt with the core (verify.proven)
# and a file whose rounds, totals, winners, finished (or any other field it
# states) differ from the rebuilt game is refused, naming game and field; what
# is stored is the rebuilt game. Importing is idempotent: a copy of a game
# already there replaces it only when it continues it (the stored copy's
# records are its beginning: the journal only grows); an older copy is left
# alone, and a copy that neither continues nor precedes the stored one is
# refused. A refusal leaves the database as it was (one transaction).
#
# A database of schema 1 (a tafel from before the check) is checked once when
# it is opened: each stored game is proven like an import; a game its records
# do not prove stays in the database, marked "unproven" with the reason, and
# is left out of statistics, charts and reports (the commands say so) until
# a proving copy of it is imported, which replaces it.
#
# Tables (for anyone who wants to query them with sqlite3):
#   games(device, id, created, imported, variant, target, players, totals, winners,
#         finished, records, doc, unproven)   doc: the game's export JSON; created NULL = clock unset;
#                                             unproven: NULL, or why its records do not prove it
#   seats(device, game, seat, player, total, won)
#   rounds(device, game, number, seat, player, hand, score, winner)
# Statistics (stats.py) and charts read the games back as export dicts. A club evening's hub keeps
# tables of its own here too (club/registry.py); games() marks the games it stored (clubs.py).
import gc
import json
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path

from ..lang import say
from ..paths import user_data_dir
from . import clubs
from .verify import VerifyError, epoch, proven, relation  # noqa: F401 (epoch: history.epoch)

SCHEMA = 2  # 2: games.unproven (schema 1 is checked and upgraded when opened)
EVENING_SHIFT = 6 * 3600  # a game started before 6 in the morning belongs to the evening before

_TABLES = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS devices(id TEXT PRIMARY KEY, firmware TEXT, last_import INTEGER);
CREATE TABLE IF NOT EXISTS games(
    device TEXT NOT NULL, id INTEGER NOT NULL, created INTEGER, imported INTEGER NOT NULL,
    variant TEXT, target INTEGER, players TEXT, totals TEXT, winners TEXT, finished INTEGER,
    records INTEGER, doc TEXT NOT NULL, unproven TEXT, PRIMARY KEY(device, id));
CREATE TABLE IF NOT EXISTS seats(
    device TEXT NOT NULL, game INTEGER NOT NULL, seat INTEGER NOT NULL, player TEXT NOT NULL,
    total INTEGER, won INTEGER, PRIMARY KEY(device, game, seat));
CREATE TABLE IF NOT EXISTS rounds(
    device TEXT NOT NULL, game INTEGER NOT NULL, number INTEGER NOT NULL, seat INTEGER NOT NULL,
    player TEXT NOT NULL, hand INTEGER, score INTEGER, winner INTEGER,
    PRIMARY KEY(device, game, number, seat));
CREATE INDEX IF NOT EXISTS seats_player ON seats(player);
CREATE INDEX IF NOT EXISTS games_when ON games(COALESCE(created, imported));
"""


class HistoryError(Exception):
    """A database that cannot be opened or is not Tafel's."""


class ImportRefused(HistoryError):
    """A file the history does not take (a game its records do not prove, or that
    does not continue the copy already there); nothing of the import was kept."""


def default_path():
    return user_data_dir() / "history.sqlite3"


def evening_of(when):
    """The evening (YYYY-MM-DD, local time) a game begun at epoch `when` belongs to."""
    return time.strftime("%Y-%m-%d", time.localtime(when - EVENING_SHIFT))


def _evenings_of(whens):
    # evening_of for many times (a year's games): once per quarter hour they share, the step of every
    # time zone's offset, so a clock change is met where it happens.
    known = {}
    out = []
    for when in whens:
        quarter = when // 900
        if quarter not in known:
            known[quarter] = evening_of(quarter * 900)
        out.append(known[quarter])
    return out


class History:
    def __init__(self, path=None):
        self.path = Path(path) if path is not None else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(str(self.path))
            self.db.executescript(_TABLES)
            row = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
                self.db.commit()
            elif row[0] == "1":
                self._upgrade()
            elif row[0] != str(SCHEMA):
                raise HistoryError(say("db_schema", self.path, row[0], SCHEMA))
        except sqlite3.DatabaseError as err:
            raise HistoryError(say("db_unusable", self.path, err)) from None

    def close(self):
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _upgrade(self):
        # Schema 1 stored files as they came: every game is proven now, in one transaction.
        with self.db:
            self.db.execute("ALTER TABLE games ADD COLUMN unproven TEXT")
            for device, game_id, imported, doc in self.db.execute(
                    "SELECT device, id, imported, doc FROM games").fetchall():
                stored = json.loads(doc)
                try:
                    game = proven(stored)
                except VerifyError as err:
                    self.db.execute("UPDATE games SET unproven = ? WHERE device = ? AND id = ?",
                                    (str(err), device, game_id))
                    continue
                if json.dumps(game, ensure_ascii=False, sort_keys=True) != doc:
                    self._store(device, game, imported)
            self.db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA),))

    def unproven(self):
        """[(device, game id, why)] of stored games their records do not prove (from schema 1)."""
        return self.db.execute("SELECT device, id, unproven FROM games WHERE unproven IS NOT NULL "
                               "ORDER BY device, id").fetchall()

    # ---- importing ---------------------------------------------------------

    def import_doc(self, doc, now=None):
        """Import one export document (checked by export.check); returns
        {"added": n, "updated": n, "unchanged": n}; ImportRefused changes nothing."""
        return self.import_docs([("export", doc)], now)[0]

    def import_docs(self, docs, now=None):
        """Import (name, document) pairs in one transaction: every file or none.
        A list of counts per document; ImportRefused (naming file, game and why) changes nothing."""
        with self.db:  # one transaction: the files are imported whole or not at all
            return self.add_docs(docs, now)

    def add_docs(self, docs, now=None):
        """import_docs inside the caller's transaction (`with hist.db:`), which commits or rolls
        back: the club's hub stores a record and its game at once. A device's firmware is kept
        when a document does not say it (None)."""
        now = int(time.time() if now is None else now)
        out = []
        for name, doc in docs:
            device = doc["device"]["id"]
            counts = {"added": 0, "updated": 0, "unchanged": 0}
            self.db.execute(
                "INSERT INTO devices VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET "
                "firmware = COALESCE(excluded.firmware, devices.firmware), last_import = excluded.last_import",
                (device, doc["device"].get("firmware"), now))
            for game in doc["games"]:
                try:
                    counts[self._import_game(device, proven(game), now)] += 1
                except VerifyError as err:
                    raise ImportRefused(say("import_refused", name, device, err)) from None
            out.append(counts)
        return out

    def _import_game(self, device, game, now):
        old = self.db.execute("SELECT records, imported, doc, unproven FROM games WHERE device = ? AND id = ?",
                              (device, game["id"])).fetchone()
        doc = json.dumps(game, ensure_ascii=False, sort_keys=True)
        records = game.get("records") or 0
        if old is not None and old[3] is None:  # an unproven copy gives way to any proven one
            if old[2] == doc:
                return "unchanged"
            how = relation(json.loads(old[2]), game)
            if how == "conflict":
                raise VerifyError("game %d differs from the copy in the history (%d records there, %d here) and "
                                  "neither is the beginning of the other: is one of them edited by hand?"
                                  % (game["id"], old[0] or 0, records), "records")
            if how != "newer":
                return "unchanged"
        self._store(device, game, old[1] if old is not None else now)
        return "added" if old is None else "updated"

    def _store(self, device, game, imported):
        # The proven game in its rows, in place of any copy there.
        doc = json.dumps(game, ensure_ascii=False, sort_keys=True)
        for table, key in (("games", "id"), ("seats", "game"), ("rounds", "game")):
            self.db.execute("DELETE FROM %s WHERE device = ? AND %s = ?" % (table, key), (device, game["id"]))
        self.db.execute(
            "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)",
            (device, game["id"], epoch(game.get("created")), imported, game["variant"], game["target"],
             json.dumps(game["players"], ensure_ascii=False), json.dumps(game["totals"]),
             json.dumps(game["winners"], ensure_ascii=False), int(bool(game.get("finished"))),
             game.get("records") or 0, doc))
        for seat, player in enumerate(game["players"]):
            self.db.execute("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)",
                            (device, game["id"], seat, player, game["totals"][seat],
                             int(player in game["winners"])))
            for rnd in game["rounds"]:
                self.db.execute("INSERT INTO rounds VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                (device, game["id"], rnd["number"], seat, player, rnd["hands"][seat],
                                 rnd["scores"][seat], int(rnd["winner"] == player)))

    # ---- reading -------------------------------------------------------------

    def games(self, evening=None):
        """Every game as its export dict plus "device", "when" (epoch: created, else
        first imported) and "evening", oldest first; only one evening's if given (read by
        games_when: an evening of a year's history reads that evening's games only). A game a
        club's hub stored has "club" too: {"club", "table", "round"} (clubs.py)."""
        if evening is None:
            rows = self.db.execute("SELECT device, created, imported, doc FROM games WHERE unproven IS NULL")
        else:
            lo, hi = _around(evening)
            rows = self.db.execute("SELECT device, created, imported, doc FROM games WHERE unproven IS NULL AND "
                                   "COALESCE(created, imported) >= ? AND COALESCE(created, imported) < ?", (lo, hi))
        return _read(rows, evening, clubs.marks(self.db, evening_of))

    def games_of(self, keys):
        """The games of these (device, game id) keys that the history holds, as games() gives them."""
        keys = list(keys)
        rows = []
        for at in range(0, len(keys), 400):  # SQLite's limit on a statement's parameters, well under
            part = keys[at:at + 400]
            rows += self.db.execute(
                "SELECT device, created, imported, doc FROM games WHERE unproven IS NULL AND (device, id) IN "
                "(VALUES %s)" % ", ".join(["(?, ?)"] * len(part)), [v for key in part for v in key]).fetchall()
        return _read(rows, None, clubs.marks(self.db, evening_of))

    def evenings(self):
        """The evenings with games, oldest first (from the games' times, no game read whole)."""
        return sorted({evening_of(when) for (when,) in self.db.execute(
            "SELECT DISTINCT COALESCE(created, imported) FROM games WHERE unproven IS NULL")})

    def find_game(self, ref):
        """A game by "ID" (if only one device has it) or "DEVICE:ID"; HistoryError if none or several."""
        device, sep, number = ref.rpartition(":")
        try:
            game_id = int(number)
        except ValueError:
            raise HistoryError(say("game_ref", ref)) from None
        found = [g for g in _read(self.db.execute("SELECT device, created, imported, doc FROM games WHERE "
                                                  "unproven IS NULL AND id = ?", (game_id,)),
                                        None, clubs.marks(self.db, evening_of))
                 if not sep or g["device"] == device]
        if not found:
            left = [u for u in self.unproven() if u[1] == game_id and (not sep or u[0] == device)]
            if left:
                raise HistoryError(say("game_left_out", left[0][0], game_id, self.path, left[0][2]))
            raise HistoryError(say("no_game", ref, self.path))
        if len(found) > 1:
            raise HistoryError(say("game_several", game_id, ", ".join(g["device"] for g in found),
                                   found[0]["device"], game_id))
        return found[0]

    def counts(self):
        return {table: self.db.execute("SELECT COUNT(*) FROM %s" % table).fetchone()[0]
                for table in ("devices", "games", "seats", "rounds")}


def _around(evening):
    """(lo, hi): epochs a little wider than those whose evening_of() is `evening` (YYYY-MM-DD); _read
    then keeps the evening's exactly (however the local clock moves around it)."""
    try:
        day = time.mktime(time.strptime(evening, "%Y-%m-%d"))
    except (ValueError, OverflowError):
        return 0, 0
    return int(day) + EVENING_SHIFT - 2 * 86400, int(day) + EVENING_SHIFT + 3 * 86400


def _read(rows, evening=None, marks=None):
    # (device, created, imported, doc) rows as games() gives them, oldest first.
    out = []
    rows = list(rows)
    whens = [created if created is not None else imported for _, created, imported, _ in rows]
    with no_cycle_collection():
        for (device, _, _, doc), when, on in zip(rows, whens, _evenings_of(whens)):
            if evening is None or on == evening:
                game = json.loads(doc)
                game["device"], game["when"], game["evening"] = device, when, on
                if marks and (device, game["id"]) in marks:
                    game["club"] = marks[(device, game["id"])]
                out.append(game)
        out.sort(key=lambda g: (g["when"], g["device"], g["id"]))
    return out


@contextmanager
def no_cycle_collection():
    """No cyclic garbage collection inside: a year's games are millions of new lists and dicts, none in
    a cycle, and a collection at every 700 of them (and again over all of them, generation by
    generation) took over half the time of reading them. A command reading them for its statistics
    keeps it off until it has printed them."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()
