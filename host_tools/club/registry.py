# The hub's registry: paired tables and their secrets, the records each game has sent, the rejection log
# and the live board's last word from each table, in the history database `tafel history` reads.
#
# A companion schema beside the history's own (history/database.py, schema 2): tables of their
# own, created when missing, their version under meta's key 'club_schema' (2; a database of club
# schema 1, from before the tournament was kept, gets club_rounds when opened). The history's schema
# number is left alone, so a tafel without the club still opens the database and sees its games.
#   club_devices(id, table_name, secret, club, paired)    one row per paired device; secret: 32 bytes
#   club_games(device, game, club, table_name, evening, next_seq, first_seen, last_seen)
#                                                          next_seq: every record before it is stored
#   club_records(device, game, seq, frame, received)       the journal frames, exactly as they came
#   club_rejections(id, time, device, topic, reason, detail)  what the hub refused, and why
#   club_live(device, status, status_at, state, state_at)  the last status and STATE body per table
#   club_rounds(club, evening, round, tbl, device, table_name, players, variant, target, seed, drawn)
#                                                          the tournament's rounds as drawn, one row per
#                                                          table; players: JSON names in seat order;
#                                                          seed: the draw's; drawn: epoch s (schema 2)
# The secrets are as good as the tables' keys: pairing makes the database file readable by its owner
# only (POSIX).
#
#   with Registry(path) as reg:          # None: the history's default path
#       reg.pair("esp32-a1b2c3d4e5f6", "Tisch 3", secret, "kartenclub")
#       reg.secret("esp32-a1b2c3d4e5f6")  # -> the 32 bytes, or None when not paired
#
# Rejections and the board's rows are kept in memory and written with the next stored record or
# flush() (the hub flushes at least once a second, and on close): a log line costs no commit of its
# own, so a flood of junk does not become a flood of disk writes. The log keeps the newest
# MAX_REJECTIONS rows.
import json
import os
import sqlite3
import time
from collections import namedtuple

from tafel import club

from ..history.database import History, HistoryError, evening_of
from ..lang import say

SCHEMA = 2  # 2: club_rounds (schema 1 gets it when opened)
MAX_REJECTIONS = 50000
MAX_TABLE_NAME = 40

_TABLES = """
CREATE TABLE IF NOT EXISTS club_devices(
    id TEXT PRIMARY KEY, table_name TEXT NOT NULL, secret BLOB NOT NULL, club TEXT NOT NULL, paired INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS club_games(
    device TEXT NOT NULL, game INTEGER NOT NULL, club TEXT NOT NULL, table_name TEXT, evening TEXT NOT NULL,
    next_seq INTEGER NOT NULL, first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, PRIMARY KEY(device, game));
CREATE TABLE IF NOT EXISTS club_records(
    device TEXT NOT NULL, game INTEGER NOT NULL, seq INTEGER NOT NULL, frame BLOB NOT NULL,
    received INTEGER NOT NULL, PRIMARY KEY(device, game, seq));
CREATE TABLE IF NOT EXISTS club_rejections(
    id INTEGER PRIMARY KEY AUTOINCREMENT, time REAL NOT NULL, device TEXT, topic TEXT NOT NULL,
    reason TEXT NOT NULL, detail TEXT);
CREATE TABLE IF NOT EXISTS club_live(
    device TEXT PRIMARY KEY, status TEXT, status_at REAL, state BLOB, state_at REAL);
CREATE TABLE IF NOT EXISTS club_rounds(
    club TEXT NOT NULL, evening TEXT NOT NULL, round INTEGER NOT NULL, tbl INTEGER NOT NULL, device TEXT NOT NULL,
    table_name TEXT NOT NULL, players TEXT NOT NULL, variant TEXT NOT NULL, target INTEGER NOT NULL,
    seed INTEGER NOT NULL, drawn REAL NOT NULL, PRIMARY KEY(club, evening, round, tbl));
CREATE INDEX IF NOT EXISTS club_games_evening ON club_games(club, evening);
"""

Device = namedtuple("Device", "device_id table_name club paired")
Rejection = namedtuple("Rejection", "time device topic reason detail")
Live = namedtuple("Live", "device status status_at state state_at")
ClubGame = namedtuple("ClubGame", "device game club table_name evening next_seq last_seen")
Round = namedtuple("Round", "number variant target seed drawn tables")  # tables: [Seat], table 1 first
Seat = namedtuple("Seat", "device table_name players")


class RegistryError(HistoryError):
    """A pairing the registry refuses (a name a topic cannot carry, a secret of the wrong size), or a
    database whose club tables are of another version."""


class Registry:
    def __init__(self, db_path=None):
        self.history = History(db_path)
        self.path = self.history.path
        self.db = self.history.db
        self._pending = []  # (sql, args) written with the next commit: rejections, the board's rows
        self._rejected = 0
        try:
            with self.db:
                self.db.executescript(_TABLES)
            row = self.db.execute("SELECT value FROM meta WHERE key = 'club_schema'").fetchone()
            if row is None:
                with self.db:
                    self.db.execute("INSERT INTO meta VALUES ('club_schema', ?)", (str(SCHEMA),))
            elif row[0] == "1":  # club_rounds is new in 2, and made above: the version follows
                with self.db:
                    self.db.execute("UPDATE meta SET value = ? WHERE key = 'club_schema'", (str(SCHEMA),))
            elif row[0] != str(SCHEMA):
                raise RegistryError(say("club_schema", self.path, row[0], SCHEMA))
        except sqlite3.DatabaseError as err:
            self.history.close()
            raise HistoryError(say("db_unusable", self.path, err)) from None
        except RegistryError:
            self.history.close()
            raise

    def close(self):
        try:
            self.flush()
        finally:
            self.history.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- pairing -------------------------------------------------------------

    def pair(self, device_id, table_name, secret, club_name, now=None):
        """Pair a device (again: its table, secret and club replace the old ones)."""
        if not isinstance(device_id, str) or not club.valid_name(device_id):
            raise RegistryError(say("club_bad_device", device_id))
        if not isinstance(club_name, str) or not club.valid_name(club_name):
            raise RegistryError(say("club_bad_club", club_name))
        if not isinstance(table_name, str) or not 0 < len(table_name.strip()) <= MAX_TABLE_NAME \
                or not table_name.isprintable():
            raise RegistryError(say("club_bad_table", MAX_TABLE_NAME, table_name))
        if not isinstance(secret, (bytes, bytearray)) or len(secret) != club.SECRET_SIZE:
            raise RegistryError(say("club_bad_secret", club.SECRET_SIZE))
        with self.db:
            self.db.execute("INSERT INTO club_devices VALUES (?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET "
                            "table_name = excluded.table_name, secret = excluded.secret, club = excluded.club, "
                            "paired = excluded.paired",
                            (device_id, table_name.strip(), bytes(secret), club_name,
                             int(time.time() if now is None else now)))
        if os.name == "posix":
            os.chmod(self.path, 0o600)

    def unpair(self, device_id):
        """Forget a device's secret (its games and records stay); True if it was paired."""
        with self.db:
            return self.db.execute("DELETE FROM club_devices WHERE id = ?", (device_id,)).rowcount > 0

    def secret(self, device_id):
        """The device's 32-byte secret, or None if it is not paired."""
        row = self.db.execute("SELECT secret FROM club_devices WHERE id = ?", (device_id,)).fetchone()
        return bytes(row[0]) if row is not None else None

    def device(self, device_id):
        """The paired device (Device), or None."""
        row = self.db.execute("SELECT id, table_name, club, paired FROM club_devices WHERE id = ?",
                              (device_id,)).fetchone()
        return Device(*row) if row is not None else None

    def devices(self, club_name=None):
        """Every paired device (of one club if given), by table name."""
        rows = self.db.execute("SELECT id, table_name, club, paired FROM club_devices ORDER BY table_name, id")
        return [Device(*row) for row in rows if club_name is None or row[2] == club_name]

    def clubs(self):
        """The clubs of the paired devices, sorted."""
        return [row[0] for row in self.db.execute("SELECT DISTINCT club FROM club_devices ORDER BY club")]

    # ---- records ---------------------------------------------------------------

    def next_seq(self, device_id, game_id):
        """The next sequence number expected of a game (every record before it is stored; 0: none is)."""
        row = self.db.execute("SELECT next_seq FROM club_games WHERE device = ? AND game = ?",
                              (device_id, game_id)).fetchone()
        return row[0] if row is not None else 0

    def frame(self, device_id, game_id, seq):
        """A stored record's journal frame, or None."""
        row = self.db.execute("SELECT frame FROM club_records WHERE device = ? AND game = ? AND seq = ?",
                              (device_id, game_id, seq)).fetchone()
        return bytes(row[0]) if row is not None else None

    def frames(self, device_id, game_id):
        """A game's stored frames in order (sequence 0, 1, ...)."""
        return [bytes(row[0]) for row in self.db.execute(
            "SELECT frame FROM club_records WHERE device = ? AND game = ? ORDER BY seq", (device_id, game_id))]

    def add_record(self, device, game_id, seq, frame, created, now):
        """Store the record `seq` of a game (the next one: seq == next_seq), inside the caller's
        transaction; `device` is the paired Device, `created` the game's start (epoch, 0 = clock unset)
        for its evening. Writes what is pending too."""
        now = int(now)
        if seq == 0:
            self.db.execute("INSERT INTO club_games VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
                            (device.device_id, game_id, device.club, device.table_name,
                             evening_of(created or now), now, now))
        elif self.db.execute("UPDATE club_games SET next_seq = ?, last_seen = ? WHERE device = ? AND game = ? "
                             "AND next_seq = ?", (seq + 1, now, device.device_id, game_id, seq)).rowcount != 1:
            raise sqlite3.IntegrityError("record %d of %s:%d is not the next one" % (seq, device.device_id, game_id))
        self.db.execute("INSERT INTO club_records VALUES (?, ?, ?, ?, ?)",
                        (device.device_id, game_id, seq, bytes(frame), now))
        self._write_pending()

    def games(self, club_name=None, evening=None):
        """The games tables sent (ClubGame), oldest first; of one club, one evening if given."""
        rows = self.db.execute("SELECT device, game, club, table_name, evening, next_seq, last_seen FROM club_games "
                               "WHERE (?1 IS NULL OR club = ?1) AND (?2 IS NULL OR evening = ?2) "
                               "ORDER BY first_seen, device, game", (club_name, evening))
        return [ClubGame(*row) for row in rows]

    # ---- the tournament ------------------------------------------------------------

    def add_round(self, club_name, evening, number, variant, target, seed, tables, drawn=None):
        """Keep a drawn round: `tables` a list of Seat, table 1 first (a commit of its own)."""
        drawn = time.time() if drawn is None else drawn
        with self.db:
            self._write_pending()
            for i, seat in enumerate(tables):
                self.db.execute("INSERT INTO club_rounds VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                (club_name, evening, number, i + 1, seat.device, seat.table_name,
                                 json.dumps(list(seat.players), ensure_ascii=False), variant, target, seed, drawn))

    def rounds(self, club_name, evening):
        """The rounds drawn for a club on an evening (Round), round 1 first."""
        out = []
        for number, device, name, players, variant, target, seed, drawn in self.db.execute(
                "SELECT round, device, table_name, players, variant, target, seed, drawn FROM club_rounds "
                "WHERE club = ? AND evening = ? ORDER BY round, tbl", (club_name, evening)):
            if not out or out[-1].number != number:
                out.append(Round(number, variant, target, seed, drawn, []))
            out[-1].tables.append(Seat(device, name, json.loads(players)))
        return out

    # ---- the rejection log and the board's rows: written with the next commit --------

    def reject(self, device_id, topic, reason, detail=None, now=None):
        """Log a refused message: `reason` a word of ingest.REASONS, `detail` what exactly."""
        self._pending.append(("INSERT INTO club_rejections(time, device, topic, reason, detail) "
                              "VALUES (?, ?, ?, ?, ?)", (time.time() if now is None else now, device_id,
                                                         topic, reason, detail)))
        self._rejected += 1

    def save_live(self, live):
        """Keep a table's last status and STATE (Live) for the board after a restart."""
        self._pending.append(("INSERT OR REPLACE INTO club_live VALUES (?, ?, ?, ?, ?)", tuple(live)))

    def flush(self):
        """Write what is pending (a commit of its own)."""
        if self._pending:
            with self.db:
                self._write_pending()

    def _write_pending(self):
        for sql, args in self._pending:
            self.db.execute(sql, args)
        self._pending = []
        if self._rejected >= 1000:  # now and then, not at every line
            self._rejected = 0
            self.db.execute("DELETE FROM club_rejections WHERE id <= (SELECT MAX(id) FROM club_rejections) - ?",
                            (MAX_REJECTIONS,))

    def rejections(self, limit=100):
        """The newest logged rejections (Rejection), newest first."""
        self.flush()
        return [Rejection(*row) for row in self.db.execute(
            "SELECT time, device, topic, reason, detail FROM club_rejections ORDER BY id DESC LIMIT ?", (limit,))]

    def live(self):
        """Every table's last status and STATE as stored (Live)."""
        self.flush()
        return [Live(device, status, status_at, bytes(state) if state is not None else None, state_at)
                for device, status, status_at, state, state_at in self.db.execute(
                    "SELECT device, status, status_at, state, state_at FROM club_live ORDER BY device")]
