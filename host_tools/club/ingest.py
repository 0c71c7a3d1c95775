# What the hub makes of one MQTT message (topic, payload): stored, or refused with a reason; no network here.
#
# A table's records topic carries RECORD (tafel.club): a game id and one journal frame as on its
# flash. A record is believed only when
#   the topic is tafel/CLUB/DEVICE/records of the hub's club, DEVICE is paired for that club,
#   its HMAC is the device's secret's over topic and body, the body is one whole good frame,
#   its sequence number is the game's next one (0 = the create record, of the game it is sent as),
#   and the core replays it onto the game so far (export.Replay, as `tafel history import` does).
# Then, in one transaction, the frame goes into the registry and the game, rebuilt from every
# frame, into the history as `tafel history import` stores it (History.add_docs: proven by
# verify.py), so `tafel history`, `report` and `chart` show it. A (device, game, sequence) is
# stored once, however often it comes: a sequence already stored is a duplicate (the same bytes)
# or a conflict (other bytes), one beyond the next is out of order; neither is stored. An ACK
# (game id, next sequence: every record before it is stored) goes back for every message whose
# signature held, stored or not, so a table learns where the hub stands and sends from there.
# Nothing that is not signed is answered.
#
# status (b"online"/b"offline", not signed: the table's last will is sent by the broker) and STATE
# (signed) only go to the board. Every refusal is logged with its reason (REASONS) in the
# registry's log and with the logging module (logger "tafel.club").
import logging
import sqlite3
import time
from collections import OrderedDict
from contextlib import contextmanager

from tafel import club, journal, records
from tafel.errors import RecordError, ScoreError

from ..history.database import ImportRefused
from ..link import export

log = logging.getLogger("tafel.club")

# Why a message was refused: the words the log keeps (texts: "club_why_" + word).
NOT_TAFEL = "not_tafel"  # not a topic tafel/CLUB/DEVICE/WHAT
WRONG_CLUB = "wrong_club"  # another club's topic, or a device paired for another club
NOT_FOR_HUB = "not_for_hub"  # a topic the hub sends (ack, table) or does not know
UNKNOWN_DEVICE = "unknown_device"  # no device of that id is paired
BAD_MAC = "bad_mac"  # not signed with the device's secret for this topic: forged, damaged or stale
BAD_STATUS = "bad_status"  # a status other than online or offline
BAD_STATE = "bad_state"  # a signed STATE that does not decode
BAD_RECORD = "bad_record"  # a signed RECORD whose body or frame does not decode
DUPLICATE = "duplicate"  # a sequence already stored, the same bytes: answered again, not stored again
CONFLICT = "conflict"  # a sequence already stored with other bytes
OUT_OF_ORDER = "out_of_order"  # a sequence beyond the next one expected
DOES_NOT_APPLY = "does_not_apply"  # the core refuses the record on the game so far
HISTORY_REFUSED = "history_refused"  # the history holds another copy of the game that this does not continue
REASONS = (NOT_TAFEL, WRONG_CLUB, NOT_FOR_HUB, UNKNOWN_DEVICE, BAD_MAC, BAD_STATUS, BAD_STATE, BAD_RECORD,
           DUPLICATE, CONFLICT, OUT_OF_ORDER, DOES_NOT_APPLY, HISTORY_REFUSED)
FORGERY = (BAD_MAC,)  # what a table's own messages never are, unless damaged on the way
STATUSES = (b"online", b"offline")
_CACHED = 2048  # games kept replayed in memory (a table's next record applies without a rebuild): a club
#                of a thousand tables playing at once rebuilds none of them


class Verdict:
    """What became of a message. `reason` None: taken (`stored` for a record); else one of REASONS
    and `detail` says more. `ack` is (topic, payload) to publish (QoS 1), or None. `device`, `game`,
    `seq`, `kind` (the record's: create, round, ...) when known; `table` the device's table name."""

    __slots__ = ("reason", "detail", "stored", "ack", "what", "device", "table", "game", "seq", "kind")

    def __init__(self, reason=None, detail=None, stored=False, ack=None, what=None, device=None, table=None,
                 game=None, seq=None, kind=None):
        self.reason = reason
        self.detail = detail
        self.stored = stored
        self.ack = ack
        self.what = what
        self.device = device
        self.table = table
        self.game = game
        self.seq = seq
        self.kind = kind

    def __repr__(self):
        return "Verdict(%s)" % ", ".join("%s=%r" % (k, getattr(self, k)) for k in self.__slots__
                                         if getattr(self, k) is not None and getattr(self, k) is not False)


class Ingest:
    """The hub's judge for one club: handle(topic, payload) -> Verdict."""

    def __init__(self, registry, club_name, board=None, clock=time.time):
        self.registry = registry
        self.club = club_name
        self.board = board
        self.clock = clock
        self._replays = OrderedDict()  # (device, game) -> export.Replay of the stored records
        self._batch = False  # between begin() and commit(): records go in savepoints of one transaction

    # ---- a batch: the messages that came together, stored at one commit --------------------

    def begin(self):
        """Take the messages from here to commit() in one transaction: each record in a savepoint of
        its own (refused alone), one commit for all. Their ACKs must wait for commit()."""
        if not self.registry.db.in_transaction:
            self.registry.db.execute("BEGIN")
        self._batch = True

    def commit(self):
        """End the batch: all it stored is on disk, or (sqlite3.Error) none of it is (rollback())."""
        self._batch = False
        try:
            self.registry.db.commit()
        except sqlite3.Error:
            self.rollback()
            raise

    def rollback(self):
        """Drop the batch: nothing of it stored, the games in memory forgotten (read from the database again)."""
        self._batch = False
        self.registry.db.rollback()
        self._replays.clear()

    @contextmanager
    def _atomic(self):
        # A record's frame and game at once, or neither: a transaction of its own, or in a batch a savepoint.
        db = self.registry.db
        if not self._batch:
            with db:
                yield
            return
        db.execute("SAVEPOINT record")
        try:
            yield
        except BaseException:
            db.execute("ROLLBACK TO record")
            db.execute("RELEASE record")
            raise
        db.execute("RELEASE record")

    def handle(self, topic, payload, now=None):
        now = self.clock() if now is None else now
        name = topic if isinstance(topic, str) else bytes(topic).decode("utf-8", "replace")
        payload = bytes(payload)
        parts = club.topic_parts(name)
        if parts is None:
            return self._refuse(now, name, None, NOT_TAFEL)
        club_name, device_id, what = parts
        if club_name != self.club:
            return self._refuse(now, name, device_id, WRONG_CLUB, "club %s, the hub's is %s" % (club_name, self.club))
        if what not in ("records", "state", "status"):
            return self._refuse(now, name, device_id, NOT_FOR_HUB, what)
        device, secret = self.registry.device(device_id), self.registry.secret(device_id)
        if device is None or secret is None:  # (unpaired between the two: as never paired)
            return self._refuse(now, name, device_id, UNKNOWN_DEVICE)
        if device.club != club_name:
            return self._refuse(now, name, device_id, WRONG_CLUB, "paired for club %s" % device.club)
        if what == "status":
            return self._status(now, name, device, payload)
        body = club.open_signed(secret, name.encode(), payload)
        if body is None:
            return self._refuse(now, name, device_id, BAD_MAC, "%d bytes" % len(payload))
        if what == "state":
            return self._state(now, name, device, body)
        return self._record(now, name, device, secret, body)

    # ---- what each topic carries ----------------------------------------------------

    def _status(self, now, name, device, payload):
        if payload not in STATUSES:
            return self._refuse(now, name, device.device_id, BAD_STATUS, repr(payload[:20]))
        if self.board is not None:
            self.board.status(device, payload.decode(), now)
        return Verdict(what="status", device=device.device_id, table=device.table_name, detail=payload.decode())

    def _state(self, now, name, device, body):
        try:
            decoded = club.decode_state(body)
        except RecordError as err:
            return self._refuse(now, name, device.device_id, BAD_STATE, str(err))
        if self.board is not None:
            self.board.state(device, body, decoded, now)
        return Verdict(what="state", device=device.device_id, table=device.table_name, game=decoded[0])

    def _record(self, now, name, device, secret, body):
        try:
            game_id, seq, payload, frame = club.decode_record(body)
        except RecordError as err:
            return self._refuse(now, name, device.device_id, BAD_RECORD, str(err))
        key = (device.device_id, game_id)
        expected = self.registry.next_seq(*key)
        at = dict(device=device.device_id, table=device.table_name, game=game_id, seq=seq)
        if seq < expected:
            same = self.registry.frame(device.device_id, game_id, seq) == frame
            return self._refuse(now, name, device.device_id, DUPLICATE if same else CONFLICT,
                                "game %d record %d (%d stored)" % (game_id, seq, expected),
                                self._ack(device, secret, game_id, expected), **at)
        if seq > expected:
            return self._refuse(now, name, device.device_id, OUT_OF_ORDER,
                                "game %d record %d, %d expected" % (game_id, seq, expected),
                                self._ack(device, secret, game_id, expected), **at)
        try:
            kind = records.decode(payload)[0]
            replay = self._replay(key, expected)
            if replay is None:  # the first record: it must create this very game
                replay = export.Replay(payload)
                if replay.game.game_id != game_id:
                    raise RecordError("the create record of game %d sent as game %d" % (replay.game.game_id, game_id))
            else:
                self._replays.pop(key, None)  # back only once stored: a failure below leaves no half-applied game
                replay.add(payload)
        except (RecordError, ScoreError) as err:
            return self._refuse(now, name, device.device_id, DOES_NOT_APPLY, "game %d record %d: %s"
                                % (game_id, seq, err), self._ack(device, secret, game_id, expected), **at)
        doc = export.document(device.device_id, None, [replay.doc()], exported=now)
        try:
            with self._atomic():  # the frame and its game at once, or neither
                self.registry.add_record(device, game_id, seq, frame, replay.game.created, now)
                self.registry.history.add_docs([("club", doc)], now)
        except ImportRefused as err:
            return self._refuse(now, name, device.device_id, HISTORY_REFUSED, str(err),
                                self._ack(device, secret, game_id, expected), **at)
        except sqlite3.Error:
            log.exception("record %d of %s:%d not stored", seq, device.device_id, game_id)
            raise
        self._replays[key] = replay
        while len(self._replays) > _CACHED:
            self._replays.popitem(last=False)
        if self.board is not None:
            self.board.record(device, game_id, seq + 1, now)
        log.info("stored %s:%d record %d (%s)", device.device_id, game_id, seq, kind)
        return Verdict(stored=True, ack=self._ack(device, secret, game_id, seq + 1), what="records", kind=kind, **at)

    def _replay(self, key, expected):
        # The game replayed from the stored records (None before its first): from memory, else rebuilt.
        if expected == 0:
            return None
        replay = self._replays.get(key)
        if replay is not None and replay.used == expected:
            self._replays.move_to_end(key)
            return replay
        replay = None
        for frame in self.registry.frames(*key):
            payload = journal.read_frame(frame)[1]
            if replay is None:
                replay = export.Replay(payload)
            else:
                replay.add(payload)
        return replay

    def _ack(self, device, secret, game_id, next_seq):
        name = club.topic(self.club, device.device_id, "ack")
        return name.decode(), club.sign(secret, name, club.encode_ack(game_id, next_seq))

    def _refuse(self, now, name, device_id, reason, detail=None, ack=None, **at):
        self.registry.reject(device_id, name, reason, detail, now)
        level = logging.INFO if reason == DUPLICATE else logging.WARNING
        log.log(level, "refused %s from %s: %s%s", name, device_id or "?", reason, ": " + detail if detail else "")
        at.setdefault("device", device_id)
        parts = club.topic_parts(name)
        return Verdict(reason, detail, ack=ack, what=parts[2] if parts else None, **at)
