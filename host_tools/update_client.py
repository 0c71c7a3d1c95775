# `tafel update [--port PORT] BUNDLE`: send a signed bundle to a device over the serial link.
#
#   tafel update tafel-0.2.0.bundle            # auto-detects the device; progress bar on a terminal
#   tafel update --port /dev/ttyUSB0 FILE
#
# The device stages the bundle beside the running version (firmware/update/stage.py) and says
# what it has already (UPDATE_BEGIN/STATUS): a transfer cut short (cable, power) continues where
# it stopped, and files the device has already (unchanged since the running version, or staged
# before) are never sent. The bytes go raw in counted streams of CRC-checked blocks, paced to the
# device's 260-byte receive ring by what it says it took; a block counts once the device says it is
# on its flash. UPDATE_END
# checks the signature and every file again and switches; the device restarts into the new
# version, which must confirm itself (else it rolls back by itself). Wire: docs/protocol.md.
# Exit codes: 0 updated (or already running that version; a device silent after its restart is
# told about on stderr), 1 refused by the device, the transfer failed, or the device came back
# with its old version (the new one was rolled back), 2 the bundle cannot be read, 3 no device found.
import hashlib
import sys
import time
from pathlib import Path

from tafel import wire
from tafel.records import varints

from . import link_cli
from .bundle_build import MESSAGES, device_update, read_manifest_unchecked
from .link_client import DeviceError, DeviceGone, Link, LinkError, NoAnswer

OK, REFUSED, UNREADABLE, NO_DEVICE = 0, 1, 2, 3
HEAD_TIMEOUT = 30.0  # the head's last chunk: the device checks the Ed25519 signature
STATUS_TIMEOUT = 30.0  # the device hashes what it has staged
END_TIMEOUT = 120.0  # copies the shared files, checks every file's hash, switches
BACK_TIMEOUT = 20.0  # for the device to come back after its restart
TRIAL_BOOTS = 3  # firmware/bootsel.py TRIES: boots a new version gets to confirm itself
RX_SILENCE = 5.0  # seconds without an UPDATE_RX while stream bytes are owed: the device is gone
STALLS = 4  # streams in a row that bring nothing onto the flash before giving up

# The device's refusals beyond the bundle reader's (firmware/update/stage.py)
MORE = {
    "no_space": "not enough free flash for the new version beside the running one and the games' reserve",
    "on_trial": "the last update has not confirmed itself yet (restart the device first)",
    "incomplete": "files are missing on the device (the transfer did not finish)",
    "no_transfer": "no update is being transferred",
}


class UpdateRefused(Exception):
    def __init__(self, key, detail):
        Exception.__init__(self, "%s: %s%s" % (key, MORE.get(key) or MESSAGES.get(key, "refused"),
                                               " (%s)" % detail if detail else ""))
        self.key = key
        self.detail = detail


def head_of(data):
    fmt = device_update().manifest
    length, _ = fmt.unpack_header(data[:fmt.HEADER_SIZE])
    return data[:fmt.HEADER_SIZE + length + fmt.SIGNATURE_SIZE]


def parse_status(body):
    """(state, head bytes, [(file index, bytes there)]) of an UPDATE_BEGIN/STATUS answer."""
    r = wire.Body(body)
    state = r.byte()
    head = r.varint()
    wanted = [(r.varint(), r.varint()) for _ in range(r.varint())]
    return state, head, wanted


class Result:
    def __init__(self):
        self.version = None
        self.sent = 0  # bundle bytes sent
        self.skipped = 0  # files the device had already
        self.files = 0
        self.seconds = 0.0
        self.end_seconds = 0.0  # of it, UPDATE_END: the device checks everything again and switches
        self.running = None  # the version the device answered with after its restart


def send(link, data, progress=None):
    """Transfer and switch; a Result. UpdateRefused when the device says no.

    The bytes go as counted streams (UPDATE_SEND): the head, then every file the
    device wants in one stream. A stream the device ends early (a damaged block, bytes
    lost, silence) is followed by UPDATE_STATUS and a new stream from what is on flash."""
    started = time.monotonic()
    m = read_manifest_unchecked(data)
    head = head_of(data)
    out = Result()
    out.files = len(m.files)
    begin = hashlib.sha256(head).digest()[:8] + varints(len(head))
    state, have, wanted = parse_status(_ask(link, wire.UPDATE_BEGIN, begin))
    counted = [0, len(head) - have]  # bundle bytes on flash so far, bytes to send in all (grows)
    heads = False  # the files' bytes are counted once the head is whole

    def on_flash(n):
        counted[0] += n
        out.sent += n
        if progress:
            progress(counted[0], counted[1])

    stalls = 0
    while True:
        if have < len(head):
            pieces = [(0, have, head[have:])]
        else:
            pieces = [(i + 1, got, data[m.files[i].offset + got:m.files[i].offset + m.files[i].stored])
                      for i, got in wanted]
            if not heads:
                heads = True
                out.skipped = len(m.files) - len(wanted)
                counted[1] += sum(len(p[2]) for p in pieces)
        if not pieces:
            break
        left = sum(len(p[2]) for p in pieces)
        ended = _stream(link, pieces, on_flash)
        if ended != wire.RX_DONE:
            link._write(b"\n")  # ends the half line that the rest of the stream left on the device
        before = have
        state, have, wanted = parse_status(_ask(link, wire.UPDATE_STATUS, b"", STATUS_TIMEOUT))
        if state == 0:
            raise DeviceGone("the device forgot the transfer (restarted?): run tafel update again")
        now_left = sum(m.files[i].stored - got for i, got in wanted) if have >= len(head) else len(head) - have
        stalls = 0 if have > before or now_left < left else stalls + 1
        if stalls >= STALLS:
            raise DeviceGone("the transfer makes no progress (%s)" % ("silence" if ended is None else "bad blocks"))
    ending = time.monotonic()
    r = wire.Body(_ask(link, wire.UPDATE_END, b"", END_TIMEOUT))
    out.version = r.text()
    out.end_seconds = time.monotonic() - ending
    out.seconds = time.monotonic() - started
    return out


def _stream(link, pieces, on_flash):
    """One UPDATE_SEND: pieces [(part, offset, bytes)] cut into blocks, sent raw, never more
    than wire.UPDATE_WINDOW bytes beyond what the device said it took. on_flash(n) for
    bundle bytes the device says are on flash. Returns the device's last state
    (wire.RX_DONE, RX_BAD, RX_STOPPED), or None when it went silent."""
    stream = bytearray()
    marks = []  # (stream bytes up to the end of a block, bundle bytes in it)
    for part, offset, data in pieces:
        for at in range(0, len(data), wire.UPDATE_BLOCK):
            piece = data[at:at + wire.UPDATE_BLOCK]
            stream += wire.update_block(part, offset + at, piece)
            marks.append((len(stream), len(piece)))
    body = _ask(link, wire.UPDATE_SEND, varints(len(stream)))
    if _varint(body) < wire.UPDATE_BLOCK:
        raise LinkError("the device takes blocks of %d bytes at most; this tafel sends %d"
                        % (_varint(body), wire.UPDATE_BLOCK))
    seq = link._seq
    sent = taken = block = 0
    heard = time.monotonic()
    while True:
        limit = min(len(stream), taken + wire.UPDATE_WINDOW)
        if sent < limit:
            try:
                link.port.write(stream[sent:limit])
            except OSError as err:
                raise DeviceGone("cannot write to the port: %s" % err) from None
            link.wire_out += limit - sent
            sent = limit
        for kind, rseq, rbody, _ in _incoming(link, wait=sent >= limit):
            if rseq != seq:
                continue
            if kind == wire.ERR:
                code, detail = wire.parse_error(rbody)
                if code == "update":
                    key, _, detail = detail.partition(":")
                    raise UpdateRefused(key, detail)
                raise DeviceError(code, detail)
            if kind != wire.UPDATE_RX:
                continue
            heard = time.monotonic()
            r = wire.Body(rbody)
            taken, now, state = r.varint(), r.varint(), r.byte()
            while block < len(marks) and marks[block][0] <= now:
                on_flash(marks[block][1])
                block += 1
            if state != wire.RX_GOING:
                return state
        silence = HEAD_TIMEOUT if sent == len(stream) else RX_SILENCE  # the last block: checks on the device
        if time.monotonic() - heard > silence:
            return None


def _incoming(link, wait):
    """The frames that have come (waiting a moment for one if wait): [(kind, seq, body, size)]."""
    port = link.port
    try:
        n = port.in_waiting
        got = port.read(n) if n else (port.read(1) if wait else b"")
    except (OSError, TypeError, AttributeError) as err:
        raise DeviceGone("the port went away: %s" % (err or type(err).__name__)) from None
    link._buf += got
    link.wire_in += len(got)
    frames = []
    while True:
        frame = link._frame(0)  # whole lines read already; a past deadline reads nothing more
        if frame is None:
            return frames
        if frame[0] != "bad":
            frames.append(frame)


def _ask(link, kind, body, timeout=None):
    try:
        return link.request(kind, body, timeout)
    except DeviceError as err:
        if err.code == "update":
            key, _, detail = err.detail.partition(":")
            raise UpdateRefused(key, detail) from None
        raise


def _varint(body):
    return wire.Body(body).varint()


def back_again(link, version, timeout=BACK_TIMEOUT):
    """The firmware version the device says after its restart (None if it did not answer in time)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.5)
        try:
            hello = link.handshake(tries=1)
        except (NoAnswer, DeviceGone):
            continue
        if hello["fw"] == version:
            return version
    try:
        return link.handshake()["fw"]
    except LinkError:
        return None


def _after_restart(running, version, before):
    """What the device answered after its restart, said plainly; the exit code."""
    if running == version:
        print("the device restarted and runs %s" % running)
        return OK
    if running is None:
        print("tafel: switched to %s, but the device has not answered since its restart (%d s): the new "
              "version runs on trial; if it never comes up, the device goes back to %s by itself after %d "
              "boots. Check with: tafel info" % (version, BACK_TIMEOUT, before, TRIAL_BOOTS), file=sys.stderr)
        return OK
    # The device is up with another version: the new one failed its trial boots and was rolled back.
    print("tafel: the device runs %s again: %s did not confirm itself healthy on its trial boots and was "
          "rolled back (its screen says so)" % (running, version), file=sys.stderr)
    return REFUSED


# ---- the command -------------------------------------------------------------------

def add_parser(commands):
    cmd = commands.add_parser(
        "update", help="install a signed update bundle on the device over USB",
        description="Send a signed bundle (tafel bundle build) to the device. It is staged beside the "
                    "running version, checked (signature, every file) and switched to; the device restarts "
                    "into it. An interrupted update continues where it stopped when run again; files the "
                    "device has already are not sent. Games and settings are never touched.")
    link_cli._common(cmd)
    cmd.add_argument("bundle", metavar="BUNDLE")
    cmd.set_defaults(run=run_update)


def run_update(args):
    try:
        data = Path(args.bundle).read_bytes()
        m = read_manifest_unchecked(data)
    except OSError as err:
        print("tafel: cannot read %s: %s" % (args.bundle, err.strerror or err), file=sys.stderr)
        return UNREADABLE
    except Exception as err:  # UpdateError of the device's reader: not a bundle
        print("tafel: %s is not an update bundle (%s)" % (args.bundle, err), file=sys.stderr)
        return UNREADABLE
    link, code = link_cli._connect(args)
    if link is None:
        return code
    bar = link_cli._Bar("update %s" % m.version)
    try:
        print("device %s runs %s; sending %s (%d files)" % (link.hello["id"], link.hello["fw"], m.version,
                                                            len(m.files)))
        result = send(link, data, bar)
        bar.stop()
        print("staged and checked %s: %s bytes sent, %d of %d files were on the device already (%.1f s)"
              % (result.version, "{:,}".format(result.sent), result.skipped, result.files, result.seconds))
        return _after_restart(back_again(link, result.version), result.version, link.hello["fw"])
    except UpdateRefused as err:
        bar.stop()
        if err.key == "same_version":
            print("the device runs %s already" % m.version)
            return OK
        print("tafel: the device refused the update: %s" % err, file=sys.stderr)
        return REFUSED
    except LinkError as err:
        bar.stop()
        print("tafel: %s (run tafel update again: it continues where it stopped)" % err, file=sys.stderr)
        return REFUSED
    finally:
        link.close()
