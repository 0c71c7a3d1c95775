# The update transfer's counted stream on the simulated device (link/update.py): UPDATE_SEND,
# raw blocks under the 260-byte ring's window, UPDATE_RX, and what a bad or short stream does.
import hashlib
import struct

from crypto.test_bundle_read import PUBLIC

from appbundle import APP
from linkhost import Host, device
from tafel import wire
from tafel.bundle import manifest as fmt
from tafel.records import varints
from update.stage import Stager

HEAD = fmt.HEADER_SIZE + fmt.unpack_header(APP[:fmt.HEADER_SIZE])[0] + fmt.SIGNATURE_SIZE
IDLE_MS = 1000  # link/update.py's RAW_IDLE_MS


def session():
    dev = device()
    dev.link.stager = Stager(dev.app.store.disk.vol, [PUBLIC], running_version="1.0.0", boot_version=1,
                             mpy=None)
    host = Host(dev)
    host.handshake()
    return dev, host


def begin(host):
    body = hashlib.sha256(APP[:HEAD]).digest()[:8] + varints(HEAD)
    return status(host.ok(wire.UPDATE_BEGIN, body))


def status(body):
    r = wire.Body(body)
    state, have = r.byte(), r.varint()
    return state, have, [(r.varint(), r.varint()) for _ in range(r.varint())]


def blocks(pieces, size):
    """The stream of (part, offset, bytes) pieces cut into blocks of at most size bytes."""
    out = []
    for part, offset, data in pieces:
        for at in range(0, len(data), size):
            out.append(wire.update_block(part, offset + at, data[at:at + size]))
    return out


def stream(host, data, spoil=None):
    """UPDATE_SEND of data, sent under the window as the device reports what it took.
    spoil(bytes sent so far, next piece) may change a piece on its way. The last UPDATE_RX:
    (taken, done, state); also the most unread bytes the device ever had waiting."""
    body = host.ok(wire.UPDATE_SEND, varints(len(data)))
    assert wire.Body(body).varint() == wire.UPDATE_BLOCK
    seq = host.seq
    sent = taken = most = 0
    for _ in range(2000):
        limit = min(len(data), taken + wire.UPDATE_WINDOW)
        if sent < limit:
            piece = data[sent:limit]
            host.send(spoil(sent, piece) if spoil else piece)
            sent = limit
        most = max(most, len(host.s.rx))
        host.step()
        for line in host.lines():
            kind, rseq, rbody = wire.decode(line)
            if rseq == seq and kind == wire.UPDATE_RX:
                taken, done, state = wire.parse_numbers(rbody, 2) + [rbody[-1]]
                if state != wire.RX_GOING:
                    return (taken, done, state), most
            assert rseq != seq or kind == wire.UPDATE_RX, wire.parse_error(rbody)
    raise AssertionError("the stream never ended")


def files(have_list):
    m = fmt.parse(APP[fmt.HEADER_SIZE:HEAD - fmt.SIGNATURE_SIZE], APP[12:20], HEAD)
    return [(i + 1, got, APP[m.files[i].offset + got:m.files[i].offset + m.files[i].stored])
            for i, got in have_list]


def test_a_counted_stream_stages_the_bundle_and_end_switches():
    dev, host = session()
    assert begin(host) == (1, 0, [])
    head = b"".join(blocks([(0, 0, APP[:HEAD])], 64))
    (taken, done, state), most = stream(host, head)
    assert (taken, done, state) == (len(head), len(head), wire.RX_DONE)
    assert most <= 256  # never more waiting than the device's ring holds
    state, have, wanted = status(host.ok(wire.UPDATE_STATUS))
    assert state == 2 and have == HEAD and [i for i, _ in wanted] == [0, 1, 2, 3]
    body = b"".join(blocks(files(wanted), wire.UPDATE_BLOCK))
    assert stream(host, body)[0][2] == wire.RX_DONE
    assert status(host.ok(wire.UPDATE_STATUS))[2] == []
    assert wire.Body(host.ok(wire.UPDATE_END)).text() == "1.2.3"
    assert dev.errors == []


def test_a_block_with_a_bad_crc_ends_the_stream_and_a_new_one_completes():
    dev, host = session()
    begin(host)
    parts = blocks([(0, 0, APP[:HEAD])], 64)
    head = b"".join(parts)
    second = len(parts[0])

    def flip(at, piece):  # one bit of the second block's data
        i = second + 20 - at
        if not 0 <= i < len(piece):
            return piece
        return piece[:i] + bytes((piece[i] ^ 1,)) + piece[i + 1:]

    (taken, done, state), _ = stream(host, head, flip)
    assert state == wire.RX_BAD and done == second  # the first block is on flash, nothing after it
    host.send(b"\n")  # ends the half line the rest of the stream left behind
    state, have, _ = status(host.ok(wire.UPDATE_STATUS))
    assert (state, have) == (1, 64)
    rest = b"".join(blocks([(0, have, APP[have:HEAD])], 64))
    assert stream(host, rest)[0][2] == wire.RX_DONE
    assert status(host.ok(wire.UPDATE_STATUS))[0] == 2
    assert dev.errors == []


def test_bytes_lost_inside_the_stream_fail_the_crc_of_their_block():
    dev, host = session()
    begin(host)
    parts = blocks([(0, 0, APP[:HEAD])], 64)
    lose = len(parts[0]) + len(parts[1]) + 10  # three bytes of the third block never arrive

    def drop(at, piece):
        i = lose - at
        return piece[:i] + piece[i + 3:] if 0 <= i < len(piece) else piece

    (taken, done, state), _ = stream(host, b"".join(parts), drop)
    assert state == wire.RX_BAD and done == len(parts[0]) + len(parts[1])


def test_a_stream_that_stops_short_ends_after_the_idle_time_by_the_clock():
    dev, host = session()
    begin(host)
    head = b"".join(blocks([(0, 0, APP[:HEAD])], 64))
    host.ok(wire.UPDATE_SEND, varints(len(head)))
    host.send(head[:100])  # the host goes away: the second block is never whole
    start = dev.clock.ticks_ms()
    while True:
        host.step()
        got = [wire.decode(ln) for ln in host.lines()]
        ended = [b for k, s, b in got if k == wire.UPDATE_RX and b[-1] != wire.RX_GOING]
        if ended:
            break
        assert dev.clock.ticks_ms() - start <= IDLE_MS + 50
    assert IDLE_MS <= dev.clock.ticks_ms() - start
    assert ended[0][-1] == wire.RX_STOPPED and wire.parse_numbers(ended[0], 2) == [100, 76]
    assert dev.link.active and status(host.ok(wire.UPDATE_STATUS))[:2] == (1, 64)  # lines again


def test_a_block_for_the_wrong_place_writes_nothing_and_the_count_is_checked():
    dev, host = session()
    assert host.err(wire.UPDATE_SEND, varints(10)) == "update"  # no transfer
    begin(host)
    assert host.err(wire.UPDATE_SEND, varints(0)) == "bad_request"
    late = wire.update_block(0, 64, APP[64:128])  # the device has nothing yet: not at 64
    (taken, done, state), _ = stream(host, late)
    assert state == wire.RX_DONE and status(host.ok(wire.UPDATE_STATUS))[:2] == (1, 0)
    short = wire.update_block(0, 0, APP[:64])
    (taken, done, state), _ = stream(host, short + short[:20])  # a block the count cuts off
    assert state == wire.RX_BAD and done == len(short)
    assert struct.unpack("<HIH", short[:8]) == (0, 0, 64)


def test_a_session_that_ends_lets_the_staging_code_go():
    # The state is on flash; the Stager, its block pieces and the staging modules leave the heap
    # with the session (a new session's requests take the transfer up again: test_update_stage.py).
    import sys

    dev, host = session()
    assert begin(host) == (1, 0, [])
    head = b"".join(blocks([(0, 0, APP[:HEAD])], wire.UPDATE_BLOCK))
    assert stream(host, head)[0][2] == wire.RX_DONE
    assert dev.link.stager is not None and "update.stage" in sys.modules
    host.ok(wire.BYE)
    assert dev.link.stager is None and dev.link.raw is None
    assert "update.stage" not in sys.modules and "tafel.bundle.parts" not in sys.modules
    assert dev.errors == []


def test_while_an_update_comes_the_screens_and_the_game_make_room_and_return_when_the_session_ends():
    import sys

    # The update's checks (the signature's SHA-512 and Ed25519, the manifest: Python on the
    # chip) need the heap the screens and the running game hold. The game is on flash: it is let
    # go, home says why, and a session that ends without the restart into the new version
    # brings the standings back.
    dev, host = session()
    dev.app.session.start(("Anna", "Ben", "Cleo"), "standard", 500)
    dev.app.show_game()
    dev.advance(50)
    assert type(dev.app.screen).__name__ == "Standings"
    begin(host)
    dev.advance(50)
    assert dev.app.session.game is None and dev.app.session.game_id is not None
    assert [type(s).__name__ for s in dev.app.stack] == ["Home"]
    assert "ui.standings" not in sys.modules and "ui.round_entry" not in sys.modules  # their heap too
    assert dev.screen()[-1].strip() == "Update per USB"
    assert "(" not in dev.screen()[2]  # "continue" still offered: the game runs, it is on flash
    host.ok(wire.BYE)
    dev.advance(50)
    assert type(dev.app.screen).__name__ == "Standings"
    assert list(dev.app.session.game.players) == ["Anna", "Ben", "Cleo"]
    assert dev.errors == []


def test_a_table_that_went_elsewhere_during_the_update_is_left_there():
    dev, host = session()
    dev.app.session.start(("Anna", "Ben"), "standard", 500)
    dev.app.show_game()
    begin(host)
    dev.app.open("settings")
    host.ok(wire.BYE)
    dev.advance(50)
    assert type(dev.app.screen).__name__ == "Settings"
    dev.app.show_game()  # what "continue" does: the game comes back from flash
    assert type(dev.app.screen).__name__ == "Standings" and dev.app.session.game is not None
