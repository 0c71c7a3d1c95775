# The hub's judge (club/ingest.py): a table's signed records become the game `tafel history import`
# would make of them, each (device, game, sequence) once; everything else is refused with its reason.
import random
import sqlite3

import pytest

from club_fixtures import (
    CLUB,
    DEVICE,
    OTHER,
    OTHER_SECRET,
    SECRET,
    TABLE,
    evening_game,
    frames,
    game_rows,
    imported_as_history_import,
    opened_ack,
    record_message,
    signed,
    stored_records,
)
from export_fixtures import EVENING
from tafel import club, journal, records
from tafel.game import Game
from tafel_host.cli import main
from tafel_host.club import ingest
from tafel_host.club.board import Board
from tafel_host.club.ingest import Ingest
from tafel_host.club.registry import Registry
from tafel_host.history.database import History, ImportRefused
from tafel_host.link import export

NOW = EVENING + 1200


@pytest.fixture
def hub(tmp_path):
    """(registry, ingest) over a history database in tmp_path, the table DEVICE paired for CLUB."""
    registry = Registry(tmp_path / "history.sqlite3")
    registry.pair(DEVICE, TABLE, SECRET, CLUB)
    yield registry, Ingest(registry, CLUB, Board(registry, CLUB), clock=lambda: NOW)
    registry.close()


def feed(judge, payloads, seqs=None, game_id=7):
    return [judge.handle(*record_message(payloads, seq, game_id)) for seq in (range(len(payloads))
                                                                             if seqs is None else seqs)]


def test_replay_doc_is_the_export_of_the_same_journal():
    payloads = evening_game()
    replay = export.Replay(payloads[0])
    for payload in payloads[1:]:
        replay.add(payload)
    assert replay.doc() == export.game_from_journal(b"".join(frames(payloads)))


def test_a_whole_game_is_stored_as_history_import_stores_it(hub, tmp_path):
    registry, judge = hub
    payloads = evening_game()
    kinds = [records.decode(p)[0] for p in payloads]
    assert kinds == ["create", "round", "round", "round", "edit", "undo", "round", "finish"]
    for seq, verdict in enumerate(feed(judge, payloads)):
        assert verdict.stored and verdict.reason is None, verdict
        assert (verdict.device, verdict.table, verdict.game, verdict.seq, verdict.kind) == \
            (DEVICE, TABLE, 7, seq, kinds[seq])
        assert verdict.ack[0] == "tafel/kartenclub/esp32-a1b2c3d4e5f6/ack"
        assert opened_ack(verdict.ack) == (7, seq + 1)  # every record up to this one is stored
    registry.flush()
    assert game_rows(registry.path) == imported_as_history_import(tmp_path, payloads)
    assert stored_records(registry.path) == [(7, seq, frame) for seq, frame in enumerate(frames(payloads))]
    assert registry.rejections() == []
    # the evening's game as every other: `tafel history` shows it, marked with the evening and the table
    assert registry.games() == [(DEVICE, 7, CLUB, TABLE, "2025-03-01", 8, NOW)]
    (game,) = registry.history.games("2025-03-01")
    assert (game["device"], game["totals"], game["ended_early"]) == (DEVICE, [96, 100, 15], True)


def test_the_history_command_reads_the_clubs_games(hub, capsys):
    registry, judge = hub
    feed(judge, evening_game())
    registry.flush()
    assert main(["history", "--db", str(registry.path), "--evening", "2025-03-01"]) == 0
    out = capsys.readouterr().out
    assert "Anna" in out and "Cleo" in out


def test_each_record_is_stored_once_however_often_it_comes(hub, tmp_path):
    registry, judge = hub
    payloads = evening_game()
    feed(judge, payloads)
    before = game_rows(registry.path)
    again = list(range(len(payloads))) * 3
    random.Random(28).shuffle(again)
    for verdict in feed(judge, payloads, again):
        assert not verdict.stored and verdict.reason == ingest.DUPLICATE, verdict
        assert opened_ack(verdict.ack) == (7, 8)  # answered again: the table learns where the hub stands
    assert game_rows(registry.path) == before == imported_as_history_import(tmp_path, payloads)
    assert len(stored_records(registry.path)) == len(payloads)
    reasons = {r.reason for r in registry.rejections(1000)}
    assert reasons == {ingest.DUPLICATE}  # logged as duplicates, not as forgeries


def test_a_record_beyond_the_next_is_refused_until_those_before_it_came(hub):
    registry, judge = hub
    payloads = evening_game()
    feed(judge, payloads, [0])
    (late,) = feed(judge, payloads, [3])
    assert (late.stored, late.reason, late.seq) == (False, ingest.OUT_OF_ORDER, 3)
    assert opened_ack(late.ack) == (7, 1)  # send from record 1 on
    assert [s for _, s, _ in stored_records(registry.path)] == [0]
    assert all(v.stored for v in feed(judge, payloads, [1, 2, 3]))
    assert [s for _, s, _ in stored_records(registry.path)] == [0, 1, 2, 3]


def test_a_stored_sequence_with_other_bytes_is_a_conflict_not_a_duplicate(hub):
    registry, judge = hub
    payloads = evening_game()
    feed(judge, payloads, [0, 1])
    other = list(payloads)
    other[1] = Game.from_records(payloads[:1]).round_record({"Anna": 1, "Cleo": 2}, "Ben")
    (verdict,) = feed(judge, other, [1])
    assert (verdict.stored, verdict.reason) == (False, ingest.CONFLICT)
    assert opened_ack(verdict.ack) == (7, 2)
    assert stored_records(registry.path)[1][2] == frames(payloads)[1]


def _refused(judge, topic_message, reason):
    verdict = judge.handle(*topic_message)
    assert not verdict.stored and verdict.reason == reason, verdict
    return verdict


def test_records_that_do_not_fit_their_game_are_refused(hub):
    registry, judge = hub
    payloads = evening_game()
    create = payloads[0]
    game = Game.from_records([create])
    rnd = game.round_record({"Ben": 10, "Cleo": 20}, "Anna")
    # the first record must create the game it is sent as
    v = _refused(judge, record_message([rnd], 0), ingest.DOES_NOT_APPLY)
    assert opened_ack(v.ack) == (7, 0)
    _refused(judge, record_message([create], 0, game_id=8), ingest.DOES_NOT_APPLY)
    assert stored_records(registry.path) == []
    feed(judge, payloads, [0])
    bad = [
        records.encode_create(("Anna", "Ben"), 0, 500, game_id=7),  # a second create
        records.encode_round(0, [None, 10]),  # two seats in a game of three
        records.encode_undo(0),  # no round to undo
        records.encode_edit(4, 0, [0, 10, 20]),  # no round 5
        records.encode_finish(0),  # no round played yet
        records.encode_round(None, [0, 10, 20]),  # no winner in a standard game
    ]
    for payload in bad:
        v = _refused(judge, record_message([create, payload], 1), ingest.DOES_NOT_APPLY)
        assert opened_ack(v.ack) == (7, 1)
    assert [s for _, s, _ in stored_records(registry.path)] == [0]
    # the game so far is as it was: the genuine rest applies
    assert all(v.stored for v in feed(judge, payloads, range(1, len(payloads))))
    # and after the end nothing more
    v = _refused(judge, record_message(payloads + [rnd], len(payloads)), ingest.DOES_NOT_APPLY)
    assert opened_ack(v.ack) == (7, len(payloads))


def test_what_is_not_the_tables_own_is_refused_with_its_reason_and_never_answered(hub):
    registry, judge = hub
    payloads = evening_game()
    topic, message = record_message(payloads, 0)
    cases = [
        (("tafel/kartenclub/dev", message), ingest.NOT_TAFEL),
        (("other/kartenclub/%s/records" % DEVICE, message), ingest.NOT_TAFEL),
        ((b"\xff\xfe/\x00", message), ingest.NOT_TAFEL),
        (record_message(payloads, 0, club_name="schachclub"), ingest.WRONG_CLUB),
        (("tafel/kartenclub/%s/ack" % DEVICE, message), ingest.NOT_FOR_HUB),
        (("tafel/kartenclub/%s/table" % DEVICE, message), ingest.NOT_FOR_HUB),
        (record_message(payloads, 0, device="esp32-ffffffffffff"), ingest.UNKNOWN_DEVICE),
        (record_message(payloads, 0, secret=OTHER_SECRET), ingest.BAD_MAC),  # another secret
        ((topic, message[:-1] + bytes([message[-1] ^ 1])), ingest.BAD_MAC),  # its MAC damaged
        ((topic, message[:5] + bytes([message[5] ^ 4]) + message[6:]), ingest.BAD_MAC),  # its frame damaged
        ((topic, message[:-club.MAC_SIZE]), ingest.BAD_MAC),  # no MAC at all
        ((topic, b""), ingest.BAD_MAC),
        (signed("records", b"\x01\x01\x07garbage"), ingest.BAD_RECORD),
        (signed("records", club.encode_ack(7, 3)), ingest.BAD_RECORD),
        (signed("records", club.encode_record(7, frames(payloads)[0] + b"\x00")), ingest.BAD_RECORD),
        (signed("records", club.encode_record(7, frames(payloads)[0][:-1] + b"\x00")), ingest.BAD_RECORD),
        (signed("state", b"\x01\x03\x07"), ingest.BAD_STATE),
        (("tafel/kartenclub/%s/status" % DEVICE, b"asleep"), ingest.BAD_STATUS),
    ]
    for topic_message, reason in cases:
        verdict = _refused(judge, topic_message, reason)
        assert verdict.ack is None, verdict  # nothing unsigned is answered
    # a message copied onto another device's topic does not verify there
    registry.pair(OTHER, "Tisch 4", OTHER_SECRET, CLUB)
    _refused(judge, ("tafel/kartenclub/%s/records" % OTHER, message), ingest.BAD_MAC)
    # a device paired for another club, speaking on this club's topic
    registry.pair(OTHER, "Tisch 4", OTHER_SECRET, "schachclub")
    _refused(judge, record_message(payloads, 0, secret=OTHER_SECRET, device=OTHER), ingest.WRONG_CLUB)
    assert stored_records(registry.path) == []
    logged = registry.rejections(100)
    assert [r.reason for r in reversed(logged)] == [reason for _, reason in cases] + [ingest.BAD_MAC,
                                                                                      ingest.WRONG_CLUB]
    assert all(r.topic and r.time == NOW for r in logged)
    assert all(reason in ingest.REASONS for reason in {r.reason for r in logged})


def test_a_game_the_history_holds_otherwise_is_refused_and_nothing_of_it_kept(hub):
    registry, judge = hub
    payloads = evening_game()
    # an export of game 7 of this device with other rounds is in the history already
    game = Game.from_records(payloads[:1])
    theirs = payloads[:1] + [game.round_record({"Anna": 1, "Cleo": 2}, "Ben")]
    registry.history.import_doc(export.document(DEVICE, "0.1.0", [export.game_from_journal(b"".join(frames(theirs)))]))
    assert feed(judge, payloads, [0])[0].stored  # its first record is the beginning of theirs: kept, nothing changes
    v = feed(judge, payloads, [1])[0]
    assert (v.stored, v.reason) == (False, ingest.HISTORY_REFUSED)
    assert opened_ack(v.ack) == (7, 1)
    assert [s for _, s, _ in stored_records(registry.path)] == [0]
    assert registry.next_seq(DEVICE, 7) == 1
    assert registry.history.games()[0]["records"] == 2  # theirs, untouched


def test_a_game_without_a_clock_belongs_to_the_evening_it_came(tmp_path):
    with Registry(tmp_path / "h.sqlite3") as registry:
        registry.pair(DEVICE, TABLE, SECRET, CLUB)
        judge = Ingest(registry, CLUB, clock=lambda: NOW)
        assert all(v.stored for v in feed(judge, evening_game(created=0)))
        assert registry.games()[0][4] == "2025-03-01"
        (game,) = registry.history.games("2025-03-01")
        assert game["created"] is None


def test_a_restarted_hub_goes_on_where_the_database_stands(tmp_path):
    payloads = evening_game()
    path = tmp_path / "h.sqlite3"
    with Registry(path) as registry:
        registry.pair(DEVICE, TABLE, SECRET, CLUB)
        feed(Ingest(registry, CLUB, clock=lambda: NOW), payloads, range(4))
    with Registry(path) as registry:  # nothing in memory: the game is replayed from the stored frames
        judge = Ingest(registry, CLUB, clock=lambda: NOW)
        assert feed(judge, payloads, [2])[0].reason == ingest.DUPLICATE
        assert all(v.stored for v in feed(judge, payloads, range(4, len(payloads))))
    assert game_rows(path) == imported_as_history_import(tmp_path, payloads)


def test_status_and_state_go_to_the_board_and_stay_there(hub):
    registry, judge = hub
    v = judge.handle("tafel/kartenclub/%s/status" % DEVICE, b"online")
    assert (v.reason, v.what, v.detail, v.ack) == (None, "status", "online", None)
    state = club.encode_state(7, 2, 1, False, ["Anna", "Ben", "Cleo"], [96, 100, 0])
    v = judge.handle(*signed("state", state))
    assert (v.reason, v.what, v.game, v.ack) == (None, "state", 7, None)
    feed(judge, evening_game(), [0, 1])
    (table,) = judge.board.tables()
    assert (table.name, table.status, table.game, table.next_seq) == (TABLE, "online", 7, 2)
    assert table.as_dict()["state"] == {"game": 7, "rounds": 2, "dealer": 1, "finished": False,
                                        "players": ["Anna", "Ben", "Cleo"], "totals": [96, 100, 0]}
    registry.flush()
    again = Board(registry, CLUB).snapshot()
    assert again == judge.board.snapshot()
    assert again[0]["record_at"] == NOW


def test_fuzz_no_forged_record_is_ever_stored_and_every_refusal_has_a_reason(hub):
    """10,000 messages: random bytes, genuine ones truncated, bit-flipped, extended, moved to
    another topic, signed with another secret, and the genuine ones again in any order. Only
    genuine messages are stored, each record once; everything else is refused with a reason."""
    registry, judge = hub
    registry.pair(OTHER, "Tisch 4", OTHER_SECRET, CLUB)
    rng = random.Random(2028)
    games = {7: evening_game(7), 8: evening_game(8, players=("Dora", "Emil", "Fritz", "Gabi"))}
    genuine = {}  # (topic, message) -> (game, seq) of every genuine record message
    for game_id, payloads in games.items():
        for seq in range(len(payloads)):
            genuine[record_message(payloads, seq, game_id)] = (game_id, seq)
    pool = list(genuine)
    pool.append(signed("state", club.encode_state(7, 1, 1, False, ["Anna", "Ben", "Cleo"], [89, 0, 0])))
    pool.append(("tafel/kartenclub/%s/status" % DEVICE, b"online"))
    topics = ["tafel/kartenclub/%s/%s" % (d, w) for d in (DEVICE, OTHER, "esp32-ffffffffffff")
              for w in ("records", "state", "status", "ack", "table", "x")] + ["tafel/schachclub/%s/records" % DEVICE,
                                                                             "tafel//%s/records" % DEVICE, "a/b/c/d"]

    def mutated():
        topic, message = rng.choice(pool)
        how = rng.randrange(9)
        data = bytearray(message)
        if how == 0:  # random bytes
            return rng.choice(topics), bytes(rng.randrange(256) for _ in range(rng.randrange(80)))
        if how == 1:  # truncated
            return topic, bytes(data[:rng.randrange(len(data) + 1)])
        if how == 2:  # bits flipped
            for _ in range(rng.randrange(1, 4)):
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            return topic, bytes(data)
        if how == 3:  # bytes added
            return topic, bytes(data + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8))))
        if how == 4:  # onto another topic
            return rng.choice(topics), bytes(data)
        if how in (5, 6):
            topic, message = rng.choice(pool[:-1])  # a signed one
        if how == 5:  # a body of ours, signed with the other device's secret on this device's topic
            return topic, club.sign(OTHER_SECRET, topic.encode(), message[:-club.MAC_SIZE])
        if how == 6:  # random bodies, signed properly: what a table with a bug might send
            body = bytearray(message[:-club.MAC_SIZE])
            body[rng.randrange(len(body))] = rng.randrange(256)
            return signed(rng.choice(("records", "state")), bytes(body[:rng.randrange(1, len(body) + 1)]))
        return topic, message  # 7, 8: a genuine message, again or early

    seen_stored = []
    counted = {}
    for _ in range(10000):
        topic, message = mutated()
        verdict = judge.handle(topic, message)
        if verdict.stored:
            assert (topic, message) in genuine, "a forged or altered record was stored: %r" % verdict
            seen_stored.append(genuine[(topic, message)])
        else:  # refused with its reason, or a genuine status or STATE taken for the board
            taken = verdict.reason is None and (  # status is not signed; a STATE is, by the table itself
                verdict.what == "status" and message in ingest.STATUSES or
                verdict.what == "state" and club.open_signed(SECRET, topic.encode(), message) is not None)
            assert taken or verdict.reason in ingest.REASONS, verdict
        if verdict.reason is not None:
            counted[verdict.reason] = counted.get(verdict.reason, 0) + 1
        if verdict.ack is not None:  # only a table's own signed messages are answered
            assert club.open_signed(SECRET, verdict.ack[0].encode(), verdict.ack[1]) is not None
    assert len(seen_stored) == len(set(seen_stored))  # each record once
    for game_id, seq in seen_stored:  # and in order: every record before it stored first
        assert all((game_id, s) in seen_stored for s in range(seq))
    stored = stored_records(registry.path)
    assert sorted(seen_stored) == [(g, s) for g, s, _ in stored]
    assert all(frame == journal.frame(s, games[g][s]) for g, s, frame in stored)
    assert sum(counted.values()) == len(registry.rejections(20000))  # every refusal is in the log
    assert set(counted) >= {ingest.BAD_MAC, ingest.NOT_FOR_HUB, ingest.UNKNOWN_DEVICE, ingest.DUPLICATE,
                            ingest.OUT_OF_ORDER, ingest.BAD_RECORD, ingest.WRONG_CLUB, ingest.NOT_TAFEL}
    print("fuzz: %d stored, refusals %s" % (len(seen_stored), sorted(counted.items())))


def test_the_database_failing_under_a_record_stores_nothing_and_answers_nothing(hub, monkeypatch):
    registry, judge = hub
    payloads = evening_game()
    feed(judge, payloads, [0, 1])

    def broken(*args):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(registry.history, "add_docs", broken)
    with pytest.raises(sqlite3.OperationalError):
        feed(judge, payloads, [2])
    monkeypatch.undo()
    assert registry.next_seq(DEVICE, 7) == 2 and len(stored_records(registry.path)) == 2
    assert feed(judge, payloads, [2])[0].stored  # sent again, it is taken


def test_the_history_schema_is_the_historys_own(tmp_path):
    # the club's tables sit beside the history's: an older tafel still opens the database
    path = tmp_path / "h.sqlite3"
    with Registry(path) as registry:
        registry.pair(DEVICE, TABLE, SECRET, CLUB)
    db = sqlite3.connect(str(path))
    assert dict(db.execute("SELECT key, value FROM meta")) == {"schema": "2", "club_schema": "2"}
    db.close()
    with History(path) as hist:
        assert hist.games() == []


def test_a_thousand_tables_playing_at_once_go_on_without_a_game_rebuilt_from_its_records(tmp_path, monkeypatch):
    with Registry(tmp_path / "h.sqlite3") as registry:
        registry.db.execute("PRAGMA synchronous = OFF")  # a thousand commits, quickly
        registry.pair(DEVICE, TABLE, SECRET, CLUB)
        judge = Ingest(registry, CLUB, clock=lambda: NOW)
        games = {game_id: evening_game(game_id, players=("A%d" % game_id, "Ben", "Cleo")) for game_id in range(1000)}
        for game_id, payloads in games.items():
            assert feed(judge, payloads, [0], game_id)[0].stored
        monkeypatch.setattr(registry, "frames", lambda *key: pytest.fail("game %s:%d rebuilt" % key))
        for game_id, payloads in games.items():  # each table's next round, in turn
            assert feed(judge, payloads, [1], game_id)[0].stored


def other_connection(path):
    """What a second reader of the database sees: the stored (game, seq) of DEVICE."""
    db = sqlite3.connect(str(path))
    try:
        return db.execute("SELECT game, seq FROM club_records WHERE device = ? ORDER BY game, seq",
                          (DEVICE,)).fetchall()
    finally:
        db.close()


def test_records_taken_together_are_on_disk_at_one_commit_and_not_before(hub, tmp_path):
    registry, judge = hub
    payloads = evening_game()
    judge.begin()
    verdicts = feed(judge, payloads)
    assert all(v.stored for v in verdicts) and other_connection(registry.path) == []  # no ACK may go yet
    judge.commit()
    assert other_connection(registry.path) == [(7, seq) for seq in range(len(payloads))]
    assert game_rows(registry.path) == imported_as_history_import(tmp_path, payloads)


def test_a_record_refused_in_a_batch_takes_none_of_the_others_with_it(hub, monkeypatch):
    registry, judge = hub
    first, second = evening_game(7), evening_game(8, players=("Dora", "Emil", "Fritz"))
    add_docs = registry.history.add_docs

    def refusing(docs, now=None):  # as if the history held another copy of game 8
        if docs[0][1]["games"][0]["id"] == 8:
            add_docs(docs, now)  # written, then refused: its savepoint takes it back
            raise ImportRefused("another copy of game 8")
        return add_docs(docs, now)

    monkeypatch.setattr(registry.history, "add_docs", refusing)
    judge.begin()
    assert feed(judge, first, [0, 1]) and feed(judge, second, [0], 8)[0].reason == ingest.HISTORY_REFUSED
    assert all(v.stored for v in feed(judge, first, [2, 3]))
    judge.commit()
    assert other_connection(registry.path) == [(7, 0), (7, 1), (7, 2), (7, 3)]
    assert [g["id"] for g in registry.history.games()] == [7]


def test_a_batch_rolled_back_stores_nothing_and_its_records_are_taken_again(hub, tmp_path):
    registry, judge = hub
    payloads = evening_game()
    assert all(v.stored for v in feed(judge, payloads, range(2)))
    judge.begin()
    assert all(v.stored for v in feed(judge, payloads, range(2, 5)))
    judge.rollback()  # the commit failed: no ACK went, the table sends them again
    assert other_connection(registry.path) == [(7, 0), (7, 1)]
    verdicts = feed(judge, payloads, range(2, len(payloads)))
    assert all(v.stored for v in verdicts) and opened_ack(verdicts[-1].ack) == (7, len(payloads))
    assert game_rows(registry.path) == imported_as_history_import(tmp_path, payloads)
