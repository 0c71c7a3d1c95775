# EXPORT's optional chunk: a host on a noisy line asks for smaller DATA frames (docs/protocol.md, EXPORT).
from linkhost import Host, journals
from tafel import wire
from tafel.records import put_varint
from test_link import SAVE, played, session
from test_ui_flows import worked_example


def data_sizes(dev, host, body):
    """The file bytes of each DATA frame of an export asked with `body` (every frame acked)."""
    host.ok(wire.EXPORT, body)
    sizes, expect = [], 0
    while True:
        kind, seq, frame = host.frame()
        if seq != expect:
            continue
        expect += 1
        host.send(wire.encode(wire.ACK, expect))
        if kind == wire.DATA:
            sizes.append(len(wire.parse_data(frame)[3]))
        if kind == wire.DONE:
            host.step(50)
            return sizes


def export_body(mode, *numbers):
    body = bytearray((mode,))
    for n in numbers:
        put_varint(body, n)
    return bytes(body)


def test_an_export_asked_for_a_smaller_chunk_sends_data_frames_no_larger_and_the_same_bytes():
    dev = played()
    host = session(dev)
    clean = data_sizes(dev, host, export_body(wire.ALL))
    small = data_sizes(dev, host, export_body(wire.ALL, 20))
    assert max(clean) > 20 and max(small) == 20
    assert sum(small) == sum(clean) == sum(len(b) for b in journals(dev).values())
    games, _, _ = host.export(wire.ALL, 20)  # the frames carry each file's bytes as on flash
    on_flash = journals(dev)
    assert [bytes(f) for f in games[1][1]] == [on_flash[k] for k in sorted(on_flash)]
    assert dev.errors == []


def test_a_chunk_is_taken_after_every_mode_and_never_below_the_smallest_or_above_the_device_s():
    dev = played()
    dev.play("*")
    worked_example(dev)  # a second game, so there is a closed one
    dev.play(SAVE)
    host = session(dev)
    assert max(data_sizes(dev, host, export_body(wire.ONE, 1, 1))) == 16  # asked 1: the smallest, 16
    assert max(data_sizes(dev, host, export_body(wire.AFTER, 0, 0, 40))) == 40
    assert max(data_sizes(dev, host, export_body(wire.SINCE, 0, 0, 30))) == 30
    clean = max(data_sizes(dev, host, export_body(wire.ALL)))
    assert max(data_sizes(dev, host, export_body(wire.ALL, 100000))) == clean  # the device's own at most


def test_more_than_one_number_after_the_mode_s_own_is_a_bad_request():
    dev = played()
    host = session(dev)
    assert host.err(wire.EXPORT, export_body(wire.ALL, 40, 1)) == "bad_request"
    assert host.err(wire.EXPORT, export_body(wire.ONE, 1, 40, 1)) == "bad_request"
    assert host.err(wire.EXPORT, bytes((wire.ALL, 0x80))) == "bad_request"  # a varint cut short
    assert Host(dev).handshake()["proto"] == 1 and dev.errors == []
