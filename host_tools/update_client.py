# `tafel update [--port PORT] BUNDLE`: send a signed bundle to a device over the serial link.
#
#   tafel update tafel-0.2.0.bundle            # auto-detects the device; progress bar on a terminal
#   tafel update --port /dev/ttyUSB0 FILE
#
# The device stages the bundle beside the running version (firmware/update/stage.py) and says
# what it has already (UPDATE_BEGIN/STATUS): a transfer cut short (cable, power) continues where
# it stopped, and files the device has already (unchanged since the running version, or staged
# before) are never sent. Each chunk is acknowledged once it is on the device's flash. UPDATE_END
# checks the signature and every file again and switches; the device restarts into the new
# version, which must confirm itself (else it rolls back by itself). Wire: docs/protocol.md.
# Exit codes: 0 updated (or already running that version), 1 refused by the device or the transfer
# failed, 2 the bundle cannot be read, 3 no device found.
import hashlib
import sys
import time
from pathlib import Path

from tafel import wire
from tafel.records import put_varint

from . import link_cli
from .bundle_build import MESSAGES, device_update, read_manifest_unchecked
from .link_client import DeviceError, DeviceGone, Link, LinkError, NoAnswer

OK, REFUSED, UNREADABLE, NO_DEVICE = 0, 1, 2, 3
HEAD_TIMEOUT = 30.0  # the head's last chunk: the device checks the Ed25519 signature
STATUS_TIMEOUT = 30.0  # the device hashes what it has staged
END_TIMEOUT = 120.0  # copies the shared files, checks every file's hash, switches
BACK_TIMEOUT = 20.0  # for the device to come back after its restart

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
        self.running = None  # the version the device answered with after its restart


def send(link, data, progress=None):
    """Transfer and switch; a Result. UpdateRefused when the device says no."""
    started = time.monotonic()
    m = read_manifest_unchecked(data)
    head = head_of(data)
    out = Result()
    out.files = len(m.files)
    begin = hashlib.sha256(head).digest()[:8] + _varints(len(head))
    state, have, wanted = parse_status(_ask(link, wire.UPDATE_BEGIN, begin))
    total = len(head) - have
    done = 0
    while have < len(head):
        piece = head[have:have + wire.UPDATE_DATA]
        last = have + len(piece) == len(head)
        have = _varint(_ask(link, wire.UPDATE_CHUNK, _varints(0, have) + piece, HEAD_TIMEOUT if last else None))
        done += len(piece)
        out.sent += len(piece)
        if progress:
            progress(done, total)
    state, have, wanted = parse_status(_ask(link, wire.UPDATE_STATUS, b"", STATUS_TIMEOUT))
    out.skipped = len(m.files) - len(wanted)
    total = done + sum(m.files[i].stored - got for i, got in wanted)
    for i, got in wanted:
        e = m.files[i]
        while got < e.stored:
            piece = data[e.offset + got:e.offset + min(e.stored, got + wire.UPDATE_DATA)]
            now = _varint(_ask(link, wire.UPDATE_CHUNK, _varints(i + 1, got) + piece))
            if now > got:
                done += now - got
                out.sent += now - got
            got = now
            if progress:
                progress(done, total)
    r = wire.Body(_ask(link, wire.UPDATE_END, b"", END_TIMEOUT))
    out.version = r.text()
    out.seconds = time.monotonic() - started
    return out


def _ask(link, kind, body, timeout=None):
    try:
        return link.request(kind, body, timeout)
    except DeviceError as err:
        if err.code == "update":
            key, _, detail = err.detail.partition(":")
            raise UpdateRefused(key, detail) from None
        raise


def _varints(*numbers):
    out = bytearray()
    for n in numbers:
        put_varint(out, n)
    return bytes(out)


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
        running = back_again(link, result.version)
        if running == result.version:
            print("the device restarted and runs %s" % running)
        else:
            print("switched: the device runs %s after its next restart (it answers %s now)"
                  % (result.version, running or "nothing"))
        return OK
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
