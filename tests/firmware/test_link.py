# The serial link on the simulated device: a fake serial, the real Link polled from Runner.step.
# slow: 36 link sessions on whole simulated devices (about 10 s)
from linkhost import Host, decode, device, journals, roster_body
from tafel import wire
from tafel.records import varints
from test_ui_flows import worked_example

SAVE = "# #"  # the worked example's round: result, then saved
ROUND2 = "# 5 D A D 7 # #"  # from the standings: Anna 5, Ben Sieger, Cleo 7, saved


def played(**kw):
    dev = device(**kw)
    worked_example(dev)
    dev.play(SAVE)
    return dev


def session(dev):
    host = Host(dev)
    host.handshake()
    return host


def test_handshake_answers_with_the_session_figures():
    dev = device()
    host = Host(dev)
    hello = host.handshake()
    assert hello["proto"] == 1 and hello["id"] == "sim-test"
    assert hello["window"] == 4 and hello["chunk"] == 384 and hello["rx"] == wire.MAX_REQUEST  # the fake's
    assert hello["fw"] == dev.link.firmware
    assert dev.serial.guarded and dev.app.link_active
    r = wire.Body(host.ok(wire.HELLO))
    assert r.varint() == 1 and r.text() == "sim-test"
    assert dev.errors == []


def test_nothing_is_said_before_a_handshake_but_no_session_to_a_frame():
    dev = device()
    host = Host(dev)
    host.send(b"print('hello')\nhello\n\x03\x04\n")
    host.step(100)
    assert dev.serial.sent == 0
    assert host.err(wire.INFO) == "no_session"
    assert not dev.serial.guarded and not dev.app.link_active


def test_link_mark_in_the_title_row_while_a_session_lasts():
    dev = device()
    fb = dev.board.display
    corner = [fb.pixel(x, y) for x in range(120, 128) for y in range(8)]
    host = session(dev)
    host.step(20)
    assert [fb.pixel(x, y) for x in range(120, 128) for y in range(8)] != corner
    host.ok(wire.BYE)
    host.step(20)
    assert [fb.pixel(x, y) for x in range(120, 128) for y in range(8)] == corner
    assert not dev.app.link_active and dev.serial.guards == [True, False]


def test_info_before_and_after_setting_the_clock():
    dev = played()
    host = session(dev)
    info = wire.parse_info(host.ok(wire.INFO))
    assert info["games"] == 1 and info["running"] == 1 and info["next_id"] == 2
    assert not info["clock_set"] and info["flash"] == "ok" and info["free_kb"] > 0
    assert info["firmware"] == dev.link.firmware
    before = wire.parse_numbers(host.ok(wire.CLOCK, varints(1767225600)), 1)[0]
    assert before == 0
    info = wire.parse_info(host.ok(wire.INFO))
    assert info["clock_set"] and 1767225600 <= info["clock"] < 1767225600 + 5
    assert host.err(wire.CLOCK, varints(0)) == "bad_request"


def test_games_before_the_first_sync_say_so():
    dev = played()
    host = session(dev)
    host.ok(wire.CLOCK, varints(1767225600))
    dev.play("* #")  # home: new game
    worked_example_from_setup(dev)
    more, games = wire.parse_list(host.ok(wire.LIST, varints(0)))
    assert [g["created"] for g in games][0] == 0
    assert 1767225600 <= games[1]["created"] < 1767225600 + 600


def worked_example_from_setup(dev):
    from uisim import ADD_NAME, ANNA, BEN, CLEO

    dev.play("D D")
    for name in (ANNA, BEN, CLEO):
        dev.play(ADD_NAME + " " + name)
    dev.play("D #")
    if type(dev.app.screen).__name__ == "Confirm":  # "pause the running game?": yes
        dev.play("#")
    dev.play("A D 3 6 D 5 0 B 3 " + SAVE)


def test_list_gives_the_summaries():
    dev = played()
    host = session(dev)
    more, games = wire.parse_list(host.ok(wire.LIST, varints(0)))
    assert not more and len(games) == 1
    g = games[0]
    assert g["id"] == 1 and g["players"] == ["Anna", "Ben", "Cleo"] and g["rounds"] == 1
    assert g["variant"] == "standard" and g["live"] and not g["finished"] and not g["exported"]
    assert g["size"] == sum(len(v) for v in journals(dev).values())
    assert wire.parse_list(host.ok(wire.LIST, varints(1))) == (False, [])


def test_export_of_the_worked_example_decodes_to_anna_89():
    dev = played()
    host = session(dev)
    games, cursor, planned = host.export(wire.ONE, 1)
    flags, files, status = games[1]
    assert status == wire.WHOLE and flags & wire.LIVE
    game = decode(files)
    assert game.totals() == [("Anna", 89), ("Ben", 0), ("Cleo", 0)]
    assert planned == [1, sum(len(f) for f in files)]
    assert cursor == (1, 2)  # game 1 has two records: create, round
    assert dev.errors == []


def test_export_sends_the_files_as_they_are():
    dev = played()
    host = session(dev)
    games, _, _ = host.export(wire.ALL)
    on_flash = journals(dev)
    assert [bytes(f) for f in games[1][1]] == [on_flash[k] for k in sorted(on_flash)]


def test_export_of_no_such_game_is_an_error():
    dev = played()
    host = session(dev)
    assert host.err(wire.EXPORT, bytes((wire.ONE, 7))) == "no_game"
    assert host.err(wire.EXPORT, bytes((9,))) == "bad_request"


def test_export_since_a_cursor_sends_only_what_changed():
    dev = played()
    host = session(dev)
    games, cursor, _ = host.export(wire.ALL)
    assert list(games) == [1]
    games, cursor2, planned = host.export(wire.SINCE, *cursor)
    assert games == {} and cursor2 == cursor and planned == [0, 0]
    dev.play(ROUND2)
    game = dev.app.session.game
    assert len(game.rounds) == 2, dev.screen()
    games, cursor3, _ = host.export(wire.SINCE, *cursor)
    assert list(games) == [1] and cursor3[1] > cursor[1]
    assert decode(games[1][1]).totals() == game.totals()


def test_since_takes_new_games_and_games_played_on():
    dev = played()
    host = session(dev)
    _, cursor, _ = host.export(wire.ALL)
    dev.play("* #")  # a second game: the first is put away (its records stay as they were)
    worked_example_from_setup(dev)
    games, cursor2, _ = host.export(wire.SINCE, *cursor)
    assert list(games) == [2] and cursor2 == (2, 2)
    dev.play(ROUND2)
    games, cursor3, _ = host.export(wire.SINCE, *cursor2)
    assert 2 in games and cursor3 == (2, 3)  # and game 1, never marked exported
    assert len(decode(games[2][1]).rounds) == 2


def test_since_takes_older_games_not_marked_exported():
    dev = played()
    dev.play("* #")
    worked_example_from_setup(dev)  # game 1 put away, game 2 runs
    host = session(dev)
    games, _, _ = host.export(wire.SINCE, 2, 2)  # a host that has game 2 but never marked game 1
    assert list(games) == [1]
    size1 = sum(len(f) for f in games[1][1])
    assert wire.parse_numbers(host.ok(wire.MARK, varints(2, 1, 2, size1, 1)), 1) == [1]  # 2 runs: not marked
    games, _, _ = host.export(wire.SINCE, 2, 2)
    assert games == {}


def test_mark_with_sizes_marks_only_what_the_host_has():
    dev = played()
    host = session(dev)
    dev.play("* #")
    worked_example_from_setup(dev)  # game 1 is put away, game 2 runs
    more, games = wire.parse_list(host.ok(wire.LIST, varints(0)))
    size = games[0]["size"]
    assert wire.parse_numbers(host.ok(wire.MARK, varints(1, 1, size + 1)), 1) == [0]
    assert wire.parse_numbers(host.ok(wire.MARK, varints(1, 1, size)), 1) == [1]
    more, games = wire.parse_list(host.ok(wire.LIST, varints(0)))
    assert games[0]["exported"] and not games[1]["exported"]
    assert wire.parse_numbers(host.ok(wire.MARK, varints(2, 1, 2)), 1) == [0]  # without sizes nor export: no proof
    assert host.err(wire.MARK, varints(21) + b"\x01" * 21) == "bad_request"
    assert host.err(wire.MARK, varints(2, 1, 2, 5)) == "bad_request"  # one size for two games


def test_roster_push_in_parts_and_pull():
    dev = device()
    host = session(dev)
    names = ["Spieler %d" % i for i in range(40)]
    assert wire.parse_numbers(host.ok(wire.ROSTER_PUSH, roster_body(wire.FIRST, names[:10])), 1) == [10]
    host.ok(wire.ROSTER_PUSH, roster_body(0, names[10:20]))
    host.ok(wire.ROSTER_PUSH, roster_body(0, names[20:30]))
    stored = host.ok(wire.ROSTER_PUSH, roster_body(wire.LAST, names[30:] + ["spieler 1", " "]))
    assert wire.parse_numbers(stored, 1) == [40]  # a duplicate and a blank dropped
    assert dev.app.store.roster == names
    pulled = []
    start = 0
    while True:
        r = wire.Body(host.ok(wire.ROSTER_PULL, varints(start)))
        more = r.byte()
        got = r.texts()
        pulled += got
        start += len(got)
        if not more:
            break
    assert pulled == names
    assert host.err(wire.ROSTER_PUSH, roster_body(wire.LAST, ["X"])) == "bad_request"  # no FIRST
    assert dev.app.store.roster == names


def refusal(host, kind, body):
    got, reply = host.request(kind, body)
    assert got == wire.ERR, "expected ERR, got OK %r" % (reply,)
    return wire.parse_error(reply)


def test_a_roster_with_a_control_character_is_refused_whole_naming_its_place():
    dev = device()
    host = session(dev)
    host.ok(wire.ROSTER_PUSH, roster_body(wire.FIRST | wire.LAST, ["Anna", "Ben"]))
    for bad in ("Cleo\x1b[2J", "Dora\x00", "Eva\nFritz"):
        code, detail = refusal(host, wire.ROSTER_PUSH, roster_body(wire.FIRST | wire.LAST, ["Gül", bad]))
        assert code == "bad_request" and detail.startswith("name 2:") and "control character" in detail
        assert dev.app.store.roster == ["Anna", "Ben"]  # the stored roster stays as it was
    code, detail = refusal(host, wire.ROSTER_PUSH, roster_body(wire.FIRST | wire.LAST, ["Cleo\x1b[2J"]))
    assert "position 5" in detail and "\x1b" not in detail  # escaped in the answer too


def test_a_roster_over_the_limits_is_refused_saying_the_limit():
    dev = device()
    host = session(dev)
    host.ok(wire.ROSTER_PUSH, roster_body(wire.FIRST | wire.LAST, ["Anna", "Ben"]))
    code, detail = refusal(host, wire.ROSTER_PUSH, roster_body(wire.FIRST | wire.LAST, ["Anna", "N" * 21]))
    assert code == "bad_request" and "name 2" in detail and "20" in detail
    names = ["P%d" % i for i in range(70)]
    host.ok(wire.ROSTER_PUSH, roster_body(wire.FIRST, names[:35]))
    code, detail = refusal(host, wire.ROSTER_PUSH, roster_body(wire.LAST, names[35:]))
    assert code == "bad_request" and "64" in detail
    assert dev.app.store.roster == ["Anna", "Ben"]
    host.ok(wire.ROSTER_PUSH, roster_body(wire.FIRST, names[:32]))
    host.ok(wire.ROSTER_PUSH, roster_body(wire.LAST, names[32:64] + ["p1", " "]))  # 64 once cleaned
    assert dev.app.store.roster == names[:64]
    host.ok(wire.ROSTER_PUSH, roster_body(wire.FIRST | wire.LAST, []))  # what `tafel roster clear` sends
    assert dev.app.store.roster == []


def test_a_clock_the_device_cannot_hold_is_refused_and_info_survives_any_stored_time():
    dev = device()
    host = session(dev)
    code, detail = refusal(host, wire.CLOCK, varints(wire.CLOCK_MAX + 1))
    assert code == "bad_request" and str(wire.CLOCK_MAX) in detail
    assert not wire.parse_info(host.ok(wire.INFO))["clock_set"]  # nothing was set
    host.ok(wire.CLOCK, varints(wire.CLOCK_MAX))
    dev.clock.set_time(0xFFFFFFFF - 2)  # however a time this late got there
    host.step(5000)
    info = wire.parse_info(host.ok(wire.INFO))
    assert info["clock"] == 0xFFFFFFFF


def test_a_repeated_request_is_answered_again_not_done_again():
    dev = device()
    host = session(dev)
    host.ok(wire.ROSTER_PUSH, roster_body(wire.FIRST, ["Anna"]))
    body = roster_body(0, ["Ben"])
    first = host.request(wire.ROSTER_PUSH, body)
    again = host.request(wire.ROSTER_PUSH, body, seq=host.seq)  # the answer "got lost"
    assert first == again == (wire.OK, varints(2))
    host.ok(wire.ROSTER_PUSH, roster_body(wire.LAST, []))
    assert dev.app.store.roster == ["Anna", "Ben"]


def test_delete_asks_on_the_device_and_waits_for_hash():
    dev = played()
    host = session(dev)
    seq = host.seq + 1
    host.send(wire.encode(wire.DELETE, seq, varints(1)))
    host.step(500)
    assert [ln for ln in host.lines() if ln.startswith(b"~")] == []  # no answer yet
    screen = dev.screen()
    assert screen[0].startswith("Laptop fragt") and "#1 löschen?" in screen[2]
    assert "Anna Ben Cleo" in screen[4]
    assert host.err(wire.LIST, varints(0)) == "busy"
    host.seq = seq
    dev.play("#")
    kind, got_seq, body = host.frame()
    assert (kind, got_seq) == (wire.OK, seq)
    assert dev.app.store.history() == [] and dev.app.session.game is None
    assert dev.screen()[1] == "►1 Neues Spiel"
    assert journals(dev) == {}
    assert dev.errors == []


def test_delete_refused_or_unanswered_changes_nothing():
    dev = played()
    before = journals(dev)
    host = session(dev)
    seq = host.seq = host.seq + 1
    host.send(wire.encode(wire.DELETE, seq, varints(1)))
    host.step(100)
    dev.play("*")
    kind, _, body = host.frame()
    assert kind == wire.ERR and wire.parse_error(body)[0] == "refused"
    assert host.err(wire.DELETE, varints(1), max_ms=31000) == "timeout"
    assert not dev.screen()[0].startswith("Laptop")
    assert host.err(wire.WIPE, max_ms=31000) == "timeout"
    assert host.err(wire.DELETE, varints(5)) == "no_game"
    assert journals(dev) == before and dev.app.session.game is not None
    assert dev.serial.guarded  # the session outlived the 30 s wait


def test_wipe_deletes_every_game_after_the_user_said_yes():
    dev = played()
    dev.play("* #")
    worked_example_from_setup(dev)
    host = session(dev)
    seq = host.seq = host.seq + 1
    host.send(wire.encode(wire.WIPE, seq, b""))
    host.step(100)
    assert "Alles löschen?" in dev.screen()[2] and "2 Spiele" in dev.screen()[4]
    dev.play("#")
    kind, _, body = host.frame()
    assert kind == wire.OK and wire.parse_numbers(body, 1) == [2]
    assert dev.app.store.history() == [] and journals(dev) == {}
    assert wire.parse_numbers(host.ok(wire.WIPE), 1) == [0]  # nothing to ask about


def test_update_commands_without_a_transfer_and_unknown_kinds_refused():
    dev = device()
    host = session(dev)
    assert host.err(wire.UPDATE_BEGIN) == "bad_request"  # no bundle id, no head length
    assert host.err(wire.UPDATE_CHUNK, b"\x01\x00x") == "update"  # no_transfer
    assert host.err(wire.UPDATE_END) == "update"
    assert host.ok(wire.UPDATE_STATUS) == b"\x00\x00\x00"  # nothing staged
    assert host.err(wire.UPDATE_SEND, b"\x10") == "update"  # no_transfer: no counted bytes taken
    for kind in (0x15, 0x17):
        assert host.err(kind) == "unsupported"
    for kind in (0, 0x0E, 0x3F, wire.OK, wire.DONE, 0xFF):
        assert host.err(kind) == "unknown"
    assert host.err(wire.INFO, b"x") == "bad_request"
    assert host.err(wire.LIST, b"\xff") == "bad_request"


def test_session_ends_after_host_silence_and_on_bye():
    dev = device()
    host = session(dev)
    host.step(9000)
    assert dev.serial.guarded
    host.step(1100)
    assert not dev.serial.guarded and not dev.app.link_active
    assert host.err(wire.INFO) == "no_session"
    session(dev)
    host.ok(wire.BYE)
    assert not dev.serial.guarded


def test_line_too_long_and_bad_frames_get_an_error_garbage_silence():
    dev = device()
    host = session(dev)
    host.lines()
    host.send(b"~" + b"A" * 400 + b"\n")
    kind, seq, body = host.frame()
    assert (kind, seq, wire.parse_error(body)[0]) == (wire.ERR, 0, "too_long")
    line = bytearray(wire.encode(wire.INFO, 3))
    line[5] ^= 1
    host.send(line)
    kind, seq, body = host.frame()
    assert wire.parse_error(body)[0] == "bad_frame"
    host.send(b"hello there\nTAFEL\n\n")
    host.step(100)
    assert host.lines() == []
    assert wire.parse_info(host.ok(wire.INFO))["games"] == 0


def test_busy_while_exporting_and_cancel():
    dev = played()
    host = session(dev)
    host.ok(wire.EXPORT, bytes((wire.ALL,)))
    assert host.err(wire.LIST, varints(0)) == "busy"
    wire.parse_info(host.ok(wire.INFO))  # INFO is always taken
    host.ok(wire.CANCEL)
    host.step(100)
    host.lines()
    host.step(2000)
    assert host.lines() == []  # the stream stopped
    assert host.ok(wire.LIST, varints(0))


def test_lost_frames_and_acks_are_sent_again():
    dev = played()
    host = session(dev)
    games, _, _ = host.export(wire.ALL, lose=(1, 2))
    assert decode(games[1][1]).totals()[0] == ("Anna", 89)
    # An ACK lost: the device sends the frames again after RESEND_MS.
    host.ok(wire.EXPORT, bytes((wire.ONE, 1)))
    host.step(100)
    first = [wire.decode(ln)[1] for ln in host.lines() if ln.startswith(b"~")]
    host.step(1600)
    again = [wire.decode(ln)[1] for ln in host.lines() if ln.startswith(b"~")]
    assert first and again[:len(first)] == first


def test_a_host_that_goes_away_mid_export_changes_nothing():
    dev = played()
    before = journals(dev)
    host = session(dev)
    host.ok(wire.EXPORT, bytes((wire.ALL,)))
    host.step(200)  # frames go out, nobody acks
    host.step(10000)
    assert not dev.serial.guarded and not dev.app.link_active
    assert journals(dev) == before
    host = session(dev)  # and the next host gets the whole game
    games, _, _ = host.export(wire.ALL)
    assert decode(games[1][1]).totals()[0] == ("Anna", 89)


def test_keys_work_while_an_export_streams():
    dev = played(rate=1152)  # 9600 baud: a slow line, many steps
    host = session(dev)
    host.ok(wire.EXPORT, bytes((wire.ALL,)))
    assert dev.screen()[0].startswith("Stand")
    dev.play("*")  # standings -> home, mid-stream
    assert dev.screen()[1] == "►1 Neues Spiel"
    assert dev.link._stream is not None


def long_game(dev, rounds):
    for _ in range(rounds):  # what round entry does, without the keys: Anna wins nothing
        dev.app.session.save_round({"Ben": 0, "Cleo": 0}, "Anna")


def test_writes_are_paced_to_the_line_rate():
    dev = played(rate=11520)  # 115200 baud: 11.5 bytes a millisecond
    long_game(dev, 300)
    host = session(dev)
    host.step(100)
    dev.serial.biggest = 0
    start, t0 = dev.serial.sent, dev.clock.ticks_ms()
    games, _, _ = host.export(wire.ALL)
    sent, ms = dev.serial.sent - start, dev.clock.ticks_ms() - t0
    assert dev.serial.biggest <= 600  # the credit kept while idle, at most
    assert sent <= ms * 144 // 10 + 600  # never faster than 1.25 x the line, plus the burst
    assert sent > 6000 and sent >= ms * 115 // 10 * 8 // 10  # and the line is kept busy


def test_output_is_printable_and_never_a_control_code():
    dev = played()
    host = session(dev)
    host.export(wire.ALL)
    host.ok(wire.LIST, varints(0))
    host.err(wire.DELETE, varints(9))
    assert dev.serial.sent > 200 and dev.serial.bad == []


def stream_to_done(host, mode=wire.ALL):
    """Runs an export up to its DONE frame, acking every frame but DONE; returns DONE's number."""
    host.ok(wire.EXPORT, bytes((mode,)))
    expect = 0
    while True:
        kind, seq, body = host.frame()
        if seq != expect:
            continue
        expect += 1
        if kind == wire.DONE:
            return expect
        host.send(wire.encode(wire.ACK, expect))


def test_mark_right_behind_the_ack_of_done_is_served_not_busy():
    # The host acks DONE and sends MARK at once; a device held up for a moment
    # reads both lines in one step, before its generator has said it is used up.
    dev = played()
    host = session(dev)
    after_done = stream_to_done(host)
    assert dev.link._stream is not None  # DONE went out, its ACK has not come in
    host.seq += 1
    host.send(wire.encode(wire.ACK, after_done) + wire.encode(wire.MARK, host.seq, varints(1, 1)))
    kind, seq, body = host.frame()
    assert (kind, seq) == (wire.OK, host.seq), wire.parse_error(body)
    assert dev.link._stream is None and dev.errors == []


def test_a_request_after_done_ends_the_stream_when_the_ack_of_done_was_lost():
    dev = played()
    host = session(dev)
    stream_to_done(host)  # the ACK of DONE never arrives
    host.step(20)
    assert host.ok(wire.LIST, varints(0))  # the host has the whole stream, or it would not ask
    host.step(2000)
    assert [ln for ln in host.lines() if ln.startswith(b"~")] == []  # nothing is sent again
    games, _, _ = host.export(wire.ALL)  # and the next export runs from its start
    assert decode(games[1][1]).totals()[0] == ("Anna", 89)


def intact_frames(files):
    """{seq: payload} of every frame with a good CRC in the files, hunting past damage byte by byte."""
    from tafel import journal

    out = {}
    for data in files:
        pos = 0
        while pos < len(data):
            got = journal.read_frame(bytes(data), pos)
            if got is None:
                pos += 1
                continue
            out.setdefault(got[0], got[1])
            pos = got[2]
    return out


def set_aside(dev, game_id, flip_at):
    """What the store does with damage: the live segment keeps its good frames,
    its whole damaged bytes go to keep/ (plus a copy named .1, as a second set-aside names it)."""
    disk = dev.app.store.disk
    seg = "live/%06d.000" % game_id
    data = bytearray(disk.read(seg))
    data[flip_at] ^= 0x20
    disk.mkdir("keep")
    for name in ("keep/live-%06d.000" % game_id, "keep/live-%06d.000.1" % game_id):
        f = disk.open(name, "wb")
        f.write(data)
        f.close()
    return bytes(data)


def test_export_sends_what_the_store_set_aside_in_keep_with_its_game():
    dev = played()
    long_game(dev, 24)  # 25 rounds
    disk = dev.app.store.disk
    live = disk.read("live/000001.000")
    damaged = set_aside(dev, 1, len(live) // 2)
    f = disk.open("keep/settings", "wb")  # not a game's: stays home
    f.write(b"{broken")
    f.close()
    host = session(dev)
    games, _, planned = host.export(wire.ALL)
    flags, files, status = games[1]
    assert status == wire.WHOLE and flags & wire.DAMAGED and flags & wire.LIVE
    assert [bytes(f) for f in files] == [live, damaged, damaged]
    assert planned == [1, len(live) + 2 * len(damaged)]
    assert len(intact_frames(files[1:])) == 25  # of 26 records one is damaged: the other 25 reach the laptop
    more, listed = wire.parse_list(host.ok(wire.LIST, varints(0)))
    assert listed[0]["size"] == planned[1] and listed[0]["damaged"]
    assert dev.errors == []


def test_the_file_numbers_of_keep_files_are_apart_from_the_journal_s():
    dev = played()
    set_aside(dev, 1, 20)
    host = session(dev)
    host.ok(wire.EXPORT, bytes((wire.ONE, 1)))
    kind, seq, body = host.frame()
    game_id, flags, files = wire.parse_game(body)
    assert kind == wire.GAME and [n for n, _ in files] == [1, wire.KEEP_FILE, wire.KEEP_FILE + 1]
    assert wire.KEEP_FILE > 1000  # live segments are numbered 1 ... 1000


def test_a_game_only_in_keep_goes_out_as_a_damaged_game_of_its_own():
    dev = played()
    disk = dev.app.store.disk
    journal1 = disk.read("live/000001.000")
    disk.mkdir("keep")
    f = disk.open("keep/games-000009.tj", "wb")  # game 9 has no history entry, only bytes set aside
    f.write(journal1)
    f.close()
    host = session(dev)
    games, cursor, planned = host.export(wire.ALL)
    assert sorted(games) == [1, 9] and cursor == (1, 2)  # the cursor stays the history's
    flags, files, _ = games[9]
    assert flags & wire.DAMAGED and [bytes(f) for f in files] == [journal1]
    assert list(host.export(wire.ONE, 9)[0]) == [9]
    assert sorted(host.export(wire.SINCE, *cursor)[0]) == [9]  # it goes out every time: it cannot be marked
    assert wire.parse_numbers(host.ok(wire.MARK, varints(1, 9, len(journal1))), 1) == [0]


def test_info_carries_the_storage_report_of_the_boot_check():
    dev = played()
    host = session(dev)
    assert wire.parse_info(host.ok(wire.INFO))["storage_report"] == []
    dev.app.store.report = [("index_rebuilt", 3), ("game_rebuilt", (7, "from its second copy")),
                            ("settings_damaged", None), ("flash_low", 40), ("odd", "ä" * 50)]
    report = wire.parse_info(host.ok(wire.INFO))["storage_report"]
    assert report[:4] == [{"key": "index_rebuilt", "game": None, "detail": "3"},
                          {"key": "game_rebuilt", "game": 7, "detail": "from its second copy"},
                          {"key": "settings_damaged", "game": None, "detail": None},
                          {"key": "flash_low", "game": None, "detail": "40"}]
    assert report[4]["detail"] == "ä" * 32  # cut to what a text on the wire may hold
    # notes whose detail is the game's id name it as their game
    keys = ("game_lost", "rounds_missing", "copy_mended", "game_mended", "torn_tail_repaired", "game_set_aside")
    dev.app.store.report = [(key, i + 4) for i, key in enumerate(keys)]
    report = wire.parse_info(host.ok(wire.INFO))["storage_report"]
    assert report == [{"key": key, "game": i + 4, "detail": None} for i, key in enumerate(keys)]
    dev.app.store.report = [("game_damaged", (i + 1, "bad frame at byte %d" % i)) for i in range(200)]
    body = host.ok(wire.INFO)
    report = wire.parse_info(body)["storage_report"]
    assert len(body) <= wire.MAX_REPLY and 20 < len(report) < 200
    assert report[-1]["key"] == "more" and int(report[-1]["detail"]) == 200 - (len(report) - 1)
    assert report[0] == {"key": "game_damaged", "game": 1, "detail": "bad frame at byte 0"}
