# Protocol fuzz: 20,000 random, mutated, truncated and oversized lines and floods at the
# slow: 20,000 lines at the link
# link; afterwards the device still answers, nothing crashed, and every game is as it was.
import random

from linkhost import Host, decode, device, journals
from tafel import wire
from test_link import SAVE, worked_example

ROUNDS = 20000  # lines sent at the link (issue 15: at least 20,000)
BACKLOG = 4096  # bytes sent and not read yet, at most
_pool = []  # random bytes, drawn once: slices of it are quicker than a draw per byte


def _random_bytes(rnd, n):
    if not _pool:
        _pool.append(bytes(rnd.getrandbits(8) for _ in range(8192)))
    start = rnd.randrange(8192 - n + 1)
    return _pool[0][start:start + n]


def _valid(rnd):
    kind = rnd.choice((wire.HELLO, wire.INFO, wire.LIST, wire.EXPORT, wire.ACK, wire.CANCEL,
                       wire.CLOCK, wire.ROSTER_PULL, wire.MARK, wire.DELETE, wire.WIPE, wire.BYE,
                       wire.UPDATE_BEGIN, wire.OK, wire.DATA, rnd.getrandbits(8)))
    body = _random_bytes(rnd, rnd.choice((0, 1, 2, 3, 8, 40, 140, 141, 300)))
    return wire.encode(kind, rnd.getrandbits(16), body)


def _mutated(rnd):
    line = bytearray(_valid(rnd))
    how = rnd.getrandbits(3)
    if how == 0:  # a flipped bit in the base64
        i = 1 + rnd.randrange(len(line) - 2)
        line[i] ^= 1 << rnd.getrandbits(3)
    elif how == 1:  # truncated
        line = line[:rnd.randrange(len(line))] + b"\n"
    elif how == 2:  # two run together
        line = line[:-1] + _valid(rnd)
    elif how == 3:  # a byte that is not base64
        line[1 + rnd.randrange(len(line) - 2)] = rnd.choice(b"!*-.\x03\x01\x04\x00\xff ")
    elif how == 4:  # the newline lost: runs into the next line
        line = line[:-1]
    elif how == 5:  # a CRC that fits a frame with another body
        line = bytearray(wire.encode(wire.DELETE, 1, b"\x01"))
        line[-4] ^= 4
    return bytes(line)


def _garbage(rnd):
    n = rnd.choice((1, 5, 50, 255, 256, 257, 1000, 5000))
    head = rnd.choice((b"", b"~", b"TAFEL", b"TAFEL?", b"\r"))
    return head + _random_bytes(rnd, n) + rnd.choice((b"\n", b"", b"\r\n"))


def test_fuzz_changes_no_game_and_the_device_still_answers():
    dev = device()
    worked_example(dev)
    dev.play(SAVE)
    dev.play("*")  # a second game, so there is a closed one and a live one
    worked_example(dev)
    dev.play(SAVE)
    before = journals(dev)
    history = dev.app.store.history()
    random.seed(6)
    rnd = random
    host = Host(dev)
    for i in range(ROUNDS):
        if i % 40 == 0:
            host.send(b"TAFEL?\n")  # most of it inside a session, some outside
        pick = rnd.getrandbits(2)
        host.send(_valid(rnd) if pick == 0 else _mutated(rnd) if pick == 1 else _garbage(rnd))
        if rnd.getrandbits(2) == 0:
            host.step(rnd.choice((10, 10, 20, 100)))
        while len(host.s.rx) > BACKLOG:  # as a line would: the device reads what came before more comes
            host.step()
        if i % 100 == 0:
            host.lines()  # the host reads now and then
            assert dev.serial.bad == []
    host.step(40000)  # whatever question is on the screen times out, the session ends
    host.lines()
    assert dev.errors == []
    assert not dev.serial.guarded and not dev.app.link_active
    assert journals(dev) == before and dev.app.store.history() == history
    assert dev.serial.bad == []
    # still a working link
    hello = host.handshake()
    assert hello["proto"] == 1
    assert wire.parse_info(host.ok(wire.INFO))["games"] == 2
    games, _, _ = host.export(wire.ALL)
    assert decode(games[2][1]).totals()[0] == ("Anna", 89)
    # and the keys still work
    dev.play("* *")  # (the first only ends the table view the long rest brought up)
    assert dev.screen()[1] == "►1 Neues Spiel"
