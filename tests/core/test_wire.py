# The link's wire format (lib/tafel/wire.py): frames, handshake, bodies, cursor, journal files.
import pytest

from tafel import journal, wire
from tafel.cursor import cursor_changes, format_cursor, parse_cursor
from tafel.game import Game
from tafel.records import put_text, put_varint


def worked_example_journal():
    game = Game(("Anna", "Ben", "Cleo"), "standard", 200, None, 0, 1)
    recs = [game.create_record()]
    rec = game.round_record({"Ben": 36, "Cleo": 53}, "Anna")
    game.apply(rec)
    recs.append(rec)
    return b"".join(journal.frame(i, p) for i, p in enumerate(recs))


def test_a_frame_is_one_printable_line():
    for kind in (wire.HELLO, wire.DATA, 0xFF):
        for body in (b"", b"\x00\x01\x02\x03\x04\x05", bytes(range(256)) * 4):
            line = wire.encode(kind, 0xBEEF, body)
            assert line[0:1] == b"~" and line[-1:] == b"\n"
            assert all(32 <= b <= 126 for b in line[:-1])
            assert wire.decode(line) == (kind, 0xBEEF, body)
            assert len(line) == wire.encoded_size(len(body))


def test_decode_takes_crlf_and_no_newline():
    line = wire.encode(wire.INFO, 7, b"ab")
    assert wire.decode(line[:-1] + b"\r\n") == (wire.INFO, 7, b"ab")
    assert wire.decode(line[:-1]) == (wire.INFO, 7, b"ab")


def test_seq_is_16_bits():
    assert wire.decode(wire.encode(wire.ACK, 65536 + 5))[1] == 5


def test_the_largest_request_fits_the_device_line():
    assert wire.encoded_size(wire.MAX_REQUEST) <= wire.MAX_REQUEST_LINE
    assert wire.encoded_size(wire.MAX_REQUEST + 3) > wire.MAX_REQUEST_LINE
    assert wire.encoded_size(wire.MAX_REPLY) <= wire.MAX_LINE


def test_bad_lines_raise_wire_error_with_a_code():
    good = bytearray(wire.encode(wire.LIST, 3, b"\x00"))
    flipped = bytearray(good)
    flipped[4] ^= 0x01
    for line in (b"", b"~", b"hello\n", b"~!!!!\n", b"~AAAA\n", bytes(flipped), bytes(good[:-6]) + b"\n",
                 b"~" + b"QQ==\n"):
        with pytest.raises(wire.WireError):
            wire.decode(line)
    try:
        wire.decode(b"~AAAA\n")
    except wire.WireError as err:
        assert err.code == "bad_frame" and err.detail == "too short"


def test_wire_errors_are_value_errors():
    assert issubclass(wire.WireError, ValueError)


def test_handshake_line():
    line = wire.hello_line("esp32-0a1b", "0.1.0", 6, 384)
    assert line == b"TAFEL! proto=1 id=esp32-0a1b fw=0.1.0 window=6 chunk=384 rx=140\n"
    hello = wire.parse_hello(line)
    assert hello["proto"] == 1 and hello["id"] == "esp32-0a1b" and hello["fw"] == "0.1.0"
    assert hello["window"] == 6 and hello["chunk"] == 384 and hello["rx"] == wire.MAX_REQUEST
    assert wire.parse_hello("TAFEL! proto=2 id=x fw=9 window=1 chunk=2 rx=3 new=yes")["new"] == "yes"
    for bad in (b">>> ", b"TAFEL! proto=1", "TAFEL? proto=1 id=x fw=1 window=1 chunk=1 rx=1"):
        with pytest.raises(wire.WireError):
            wire.parse_hello(bad)


def test_error_body():
    assert wire.parse_error(wire.error_body("busy")) == ("busy", "")
    assert wire.parse_error(wire.error_body("store", "x" * 100)) == ("store", "x" * 60)


class Entry:
    def __init__(self, **kw):
        for key in kw:
            setattr(self, key, kw[key])


def test_summaries_round_trip():
    e = Entry(id=300, created=1767225600, target=500, rounds=12, winner_mask=0b101, variant="penalty",
              players=("Anna", "Björn", "Cleo"))
    out = bytearray((1,))
    put_varint(out, 2)
    wire.put_summary(out, e, wire.FINISHED | wire.EXPORTED, 777)
    wire.put_summary(out, Entry(id=301, created=0, target=200, rounds=0, winner_mask=0, variant="standard",
                                players=("A", "B")), wire.LIVE, 40)
    more, games = wire.parse_list(bytes(out))
    assert more
    assert games[0] == {"id": 300, "created": 1767225600, "variant": "penalty", "target": 500,
                        "players": ["Anna", "Björn", "Cleo"], "rounds": 12, "size": 777,
                        "winners": ["Anna", "Cleo"], "finished": True, "exported": True, "damaged": False,
                        "live": False, "ended_early": False}
    assert games[1]["live"] and games[1]["created"] == 0 and games[1]["winners"] == []


def test_a_summary_says_when_its_game_was_ended_early():
    e = Entry(id=7, created=0, target=500, rounds=3, winner_mask=0b10, variant="penalty", players=("A", "B"))
    out = bytearray((0,))
    put_varint(out, 1)
    wire.put_summary(out, e, wire.FINISHED | wire.ENDED_EARLY, 90)
    game = wire.parse_list(bytes(out))[1][0]
    assert game["finished"] and game["ended_early"] and game["winners"] == ["B"]


def test_info_body():
    out = bytearray()
    for n in (1872, 1984, 3, 2, 0, 4):
        put_varint(out, n)
    put_text(out, "0.1.0")
    put_text(out, "flash_low")
    info = wire.parse_info(bytes(out))  # a firmware from before the update fields
    assert info == {"free_kb": 1872, "total_kb": 1984, "games": 3, "running": 2, "clock": 0, "next_id": 4,
                    "firmware": "0.1.0", "flash": "flash_low", "clock_set": False,
                    "state": 0, "tries": 0, "tries_max": 3, "wdt_ms": 60000, "confirm_ms": 0,
                    "confirm_left_ms": 0, "bundle_id": "", "rollbacks": [], "storage_report": []}


def test_info_body_with_the_update_state():
    out = bytearray()
    for n in (1872, 1984, 1, 0, 1796207460, 2):
        put_varint(out, n)
    put_text(out, "0.3.5")
    put_text(out, "ok")
    for n in (1, 2, 3, 60000, 20000, 14000):  # on trial, boot 2 of 3, 14 s of 20 to run
        put_varint(out, n)
    put_text(out, "9f86d081884c7d65")
    put_varint(out, 2)
    for version, why, at, count in (("0.3.4", "crashes", 1796200000, 3), ("0.3.3", "key", 0, 0)):
        put_text(out, version)
        put_text(out, why)
        put_varint(out, at)
        put_varint(out, count)
    info = wire.parse_info(bytes(out))
    assert info["firmware"] == "0.3.5" and info["clock_set"]
    assert (info["state"], info["tries"], info["tries_max"], info["wdt_ms"], info["confirm_ms"],
            info["confirm_left_ms"]) == (1, 2, 3, 60000, 20000, 14000)
    assert info["bundle_id"] == "9f86d081884c7d65"
    assert info["rollbacks"] == [{"version": "0.3.4", "why": "crashes", "at": 1796200000, "count": 3},
                                 {"version": "0.3.3", "why": "key", "at": 0, "count": 0}]
    with pytest.raises(ValueError):  # cut inside the update fields: an error, not the defaults
        wire.parse_info(bytes(out[:-3]))
    assert info["storage_report"] == []  # a firmware from before the storage report


def test_info_body_with_the_storage_report():
    out = bytearray()
    for n in (1872, 1984, 1, 0, 0, 2):
        put_varint(out, n)
    put_text(out, "0.4.0")
    put_text(out, "ok")
    for n in (0, 0, 3, 60000, 20000, 0):  # confirmed
        put_varint(out, n)
    put_text(out, "")
    put_varint(out, 0)  # no rollbacks
    put_varint(out, 2)
    for key, game, detail in (("game_damaged", 7, "bad frame at byte 40"), ("index_rebuilt", 0, "3")):
        put_text(out, key)
        put_varint(out, game)
        put_text(out, detail)
    info = wire.parse_info(bytes(out))
    assert info["rollbacks"] == []
    assert info["storage_report"] == [{"key": "game_damaged", "game": 7, "detail": "bad frame at byte 40"},
                                      {"key": "index_rebuilt", "game": None, "detail": "3"}]


def test_keep_files_are_numbered_apart_from_the_journal_files():
    out = bytearray()
    for n in (7, 4, 3, 0, 50, 1, 40, wire.KEEP_FILE, 60):
        put_varint(out, n) if n != 4 else out.append(n)
    assert wire.parse_game(bytes(out)) == (7, 4, [(0, 50), (1, 40), (wire.KEEP_FILE, 60)])
    assert wire.KEEP_FILE > 1000  # a game has at most 1000 live segments: numbers 1 ... 1000


def test_stream_bodies():
    out = bytearray()
    for n in (7, 17, 2, 0, 50, 3, 40):
        put_varint(out, n) if n != 17 else out.append(n)
    assert wire.parse_game(bytes(out)) == (7, 17, [(0, 50), (3, 40)])
    out = bytearray()
    for n in (7, 3, 384):
        put_varint(out, n)
    assert wire.parse_data(bytes(out) + b"\x00\xff") == (7, 3, 384, b"\x00\xff")
    assert wire.parse_gend(b"\x07\x01") == (7, wire.CHANGED)
    assert wire.parse_done(b"\x02\x07\x05") == (2, 7, 5)


def test_bodies_that_end_early_raise_record_errors():
    for parse, body in ((wire.parse_game, b"\x07"), (wire.parse_info, b"\x01\x02"),
                        (wire.parse_list, b"\x00\x05"), (wire.parse_error, b"\x09ab")):
        with pytest.raises(ValueError):
            parse(body)


def test_cursor():
    assert format_cursor(12, 40) == "12:40"
    assert parse_cursor("12:40") == (12, 40)
    for bad in ("12", "a:b", "12:", ":4", "-1:3", "1:2:3"):
        with pytest.raises(ValueError):
            parse_cursor(bad)


def test_cursor_with_the_device_change_log():
    assert format_cursor(12, 40, 31337, 57) == "12:40/57@31337"
    assert parse_cursor("12:40/57@31337") == (12, 40)
    assert cursor_changes("12:40/57@31337") == (31337, 57)
    assert cursor_changes("12:40") is None
    assert wire.done_changes(b"\x02\x07\x05") is None  # a firmware without a change log
    assert wire.done_changes(b"\x02\x07\x05\x09\x03") == (9, 3)
    assert wire.parse_done(b"\x02\x07\x05\x09\x03") == (2, 7, 5)
    for bad in ("12:40/", "12:40/57", "12:40/@3", "12:40/5@x", "12:40/57@31337/1"):
        with pytest.raises(ValueError):
            parse_cursor(bad)


def test_journal_records_of_the_worked_example_give_anna_89():
    payloads, problems = wire.journal_records([worked_example_journal()])
    assert problems == []
    assert Game.from_records(payloads).totals() == [("Anna", 89), ("Ben", 0), ("Cleo", 0)]


def test_journal_records_skip_what_an_earlier_file_had_and_stop_at_a_gap():
    data = worked_example_journal()
    payloads, _ = wire.journal_records([data])
    end0 = len(journal.frame(0, payloads[0]))
    # closed copy with both records, a segment repeating record 1: nothing doubled
    payloads2, problems = wire.journal_records([data, data[end0:]])
    assert payloads2 == payloads and problems == []
    # a segment starting at record 1, after a closed copy holding only record 0
    assert wire.journal_records([data[:end0], data[end0:]])[0] == payloads
    # a gap: record 0, then a file starting at 2
    gap = journal.frame(2, payloads[1])
    got, problems = wire.journal_records([data[:end0], gap])
    assert got == payloads[:1] and "missing" in problems[0]


def test_journal_records_keep_the_good_part_of_a_torn_file():
    data = worked_example_journal()
    payloads, problems = wire.journal_records([data[:-3]])
    assert len(payloads) == 1 and "torn" in problems[0]
