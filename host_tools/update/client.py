# `tafel update [--port PORT] [--force] BUNDLE`: send a signed bundle to a device over the serial
# link and stay until the new version has proved itself (or was rolled back).
#
#   tafel update tafel-0.2.0.bundle            # auto-detects the device; progress on a terminal
#   tafel update --port /dev/ttyUSB0 FILE
#   tafel update --force FILE                  # a version this device rolled back, or its own
#                                              # version built from other content
#
# Before connecting, the whole file is checked with the device's own reader (tafel/bundle/:
# header, manifest, every file's size and SHA-256, nothing missing, nothing after the last
# file); the signature only the device can check (its trust store). Then INFO says what the
# device runs: this very bundle already (nothing to do), a version it rolled back (not sent
# again without --force), a version on trial (refused). The device stages the bundle beside the
# running version (firmware/update/stage.py) and says what it has already (UPDATE_BEGIN/STATUS):
# a transfer cut short (cable, power) continues where it stopped, and files the device has
# already (unchanged since the running version, or staged before) are never sent. The bytes go
# raw in counted streams of CRC-checked blocks, paced to the device's 260-byte receive ring by
# what it says it took; a block counts once the device says it is on its flash. UPDATE_END
# checks the signature and every file again and switches; the device restarts into the new
# version on trial. wait_trial() then follows the trial to its end (INFO: boot n of tries_max,
# how long still to run before it confirms itself; a rollback record if it never did) for as
# long as the whole trial may take (tries_max boots of the trial watchdog's timeout, the time to
# confirm, a margin). Refusals are said in plain sentences (refusals.py), the key after them in
# brackets. Wire: docs/protocol.md; the trial: docs/updates.md, "Trial boots and rollback".
# Exit codes: 0 updated and confirmed (or already running this very bundle), 1 refused (by the
# device or here), the transfer failed, the new version was rolled back or did not come back in
# time, 2 the bundle cannot be read or is damaged (nothing was sent), 3 no device found.
import hashlib
import sys
import time
from pathlib import Path

from tafel import wire
from tafel.bundle.manifest import compare_versions
from tafel.records import varints

from ..exits import Exit
from ..lang import grouped, say
from ..link import cli as link_cli
from ..link.cli import ON_TRIAL, PROBATION, rollback_when, rollback_why
from ..link.client import Link
from ..link.errors import DeviceError, DeviceGone, LinkError
from ..link.export import why_unreadable
from ..progress import Bar
from . import refusals
from .bundle_build import read_manifest_unchecked
from .bundle_file import BadBundle, bundle_id, check_bundle, head_of
from .trial import CONFIRMED, NOT_SWITCHED, ROLLED_BACK, STILL_ON_TRIAL, Waiting, trial_seconds, wait_trial

HEAD_TIMEOUT = 30.0  # the head's last chunk: the device checks the Ed25519 signature
STATUS_TIMEOUT = 30.0  # the device hashes what it has staged
END_TIMEOUT = 120.0  # copies the shared files, checks every file's hash, switches
RX_SILENCE = 5.0  # seconds without an UPDATE_RX while stream bytes are owed: the device is gone
STALLS = 4  # streams in a row that bring nothing onto the flash before giving up
RECOVERY_KEY = "0"  # firmware/bootsel.py: held at power-on, the device goes back to the previous version

class UpdateRefused(Exception):
    """The device said no: `key` (an UpdateError key), `detail` (its text); str() is the plain sentence."""

    def __init__(self, key, detail):
        Exception.__init__(self, refusals.sentence(key, detail))
        self.key = key
        self.detail = detail


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
            link.write_raw(b"\n")  # ends the half line that the rest of the stream left on the device
        before = have
        state, have, wanted = parse_status(_ask(link, wire.UPDATE_STATUS, b"", STATUS_TIMEOUT))
        if state == 0:
            raise DeviceGone(say("up_forgot"))
        now_left = sum(m.files[i].stored - got for i, got in wanted) if have >= len(head) else len(head) - have
        stalls = 0 if have > before or now_left < left else stalls + 1
        if stalls >= STALLS:
            raise DeviceGone(say("up_stuck", say("up_silence" if ended is None else "up_bad_blocks")))
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
        raise LinkError(say("up_block", _varint(body), wire.UPDATE_BLOCK))
    seq = link.seq
    sent = taken = block = 0
    heard = time.monotonic()
    while True:
        limit = min(len(stream), taken + wire.UPDATE_WINDOW)
        if sent < limit:
            try:
                link.port.write(stream[sent:limit])
            except OSError as err:
                raise DeviceGone(say("port_write", err)) from None
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
        raise DeviceGone(say("port_gone", err or type(err).__name__)) from None
    link.rx_buf += got
    link.wire_in += len(got)
    frames = []
    while True:
        frame = link.read_frame(0)  # whole lines read already; a past deadline reads nothing more
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




# ---- the command -------------------------------------------------------------------

def add_parser(commands):
    cmd = commands.add_parser("update", help=say("hp_update"), description=say("hp_update_d"))
    link_cli.port_options(cmd)
    cmd.add_argument("--force", action="store_true", help=say("hp_update_force"))
    cmd.add_argument("bundle", metavar=say("m_bundle"))
    cmd.set_defaults(run=run_update)


def _say(text):
    print("tafel: %s" % text, file=sys.stderr)


def run_update(args):
    try:
        data = Path(args.bundle).read_bytes()
    except OSError as err:
        _say(say("cannot_read", args.bundle, why_unreadable(err)))
        return Exit.USAGE
    try:
        m = check_bundle(data)
    except BadBundle as err:
        _say(say("up_cannot_send", args.bundle, err, err.key))
        return Exit.USAGE
    link, code = link_cli.connect(args)
    if link is None:
        return code
    held = [link]  # the link in use: the trial's wait may open the port again
    try:
        return _update(held, args, data, m)
    finally:
        if held[0] is not None:
            held[0].close()


def _update(held, args, data, m):
    link = held[0]
    version, bid = m.version, bundle_id(data)
    bar = Bar(say("up_bar", version))
    try:
        info = link.info()
        running = info["firmware"]
        print(say("up_device", link.hello["id"], link_cli.update_state(info)))
        if _same(running, version) and info["bundle_id"] == bid:
            print(say("up_this_bundle", version))
            if info["state"] != ON_TRIAL:
                return Exit.OK
            print(say("up_waiting_trial"))
            return _trial(held, version, info, args)
        code = _before_sending(info, version, bid, args.force)
        if code is not None:
            return code
        print(say("up_sending", version, len(m.files)))
        result = send(link, data, bar)
        bar.stop()
        print(say("up_staged", result.version, grouped(result.sent), result.skipped, result.files,
                  result.seconds))
        print(say("up_restarts", result.version, trial_seconds(info)))
        return _trial(held, result.version, info, args)
    except UpdateRefused as err:
        bar.stop()
        hint = ""
        if err.key == "same_version":
            hint = say("up_same_hint")
        _say(say("up_refused", err, hint, err.key))
        return Exit.FAILED
    except LinkError as err:
        bar.stop()
        _say(say("up_again", err))
        return Exit.FAILED


def _same(a, b):
    try:
        return compare_versions(a, b) == 0
    except ValueError:
        return a == b


def _before_sending(info, version, bid, force):
    """What stops the update before anything is sent (printed); None to go on."""
    running = info["firmware"]
    rec = next((r for r in info["rollbacks"] if _same(r["version"], version)), None)
    if rec is not None:
        said = say("up_was_rolled_back", version, rollback_when(rec["at"]), rollback_why(rec))
        if not force:
            _say(say("up_rolled_back_force", said))
            return Exit.FAILED
        print(say("up_rolled_back_again", said))
    if _same(running, version):
        other = (say("up_other_content", info["bundle_id"], bid) if info["bundle_id"] else say("up_unknown_bundle"))
        if not force:
            _say(say("up_other_build", version, other))
            return Exit.FAILED
        print(say("up_anyway", version, other))
    if info["state"] == ON_TRIAL:
        _say(say("up_not_sent", refusals.sentence("on_trial", running), info["tries"], info["tries_max"],
                 -(-info["confirm_left_ms"] // 1000)))
        return Exit.FAILED
    return None


def _trial(held, version, before, args):
    """Wait for the trial of `version` and say how it ended; the exit code."""
    link = held[0]
    url, baud = getattr(link.port, "port", None), getattr(link.port, "baudrate", args.baud)
    timeouts = {"reply": link.reply_timeout, "stream": link.stream_timeout, "nudge": link.stream_nudge,
                "handshake": link.handshake_timeout}
    reopen = (lambda: Link.open(url, baud, timeouts)) if url else None
    waiting = Waiting()
    try:
        t = wait_trial(link, version, before, reopen, waiting)
    except KeyboardInterrupt:
        waiting.stop()
        _say(say("up_stopped_waiting", version))
        return Exit.INTERRUPTED
    finally:
        waiting.stop()
    held[0] = t.link
    old = before["firmware"]
    if t.outcome == CONFIRMED:
        print(say("up_confirmed", version, say("up_probation") if t.info["state"] == PROBATION else ""))
        if t.link is not None:
            t.link.bye()
        return Exit.OK
    if t.outcome == ROLLED_BACK:
        now = t.info["firmware"]
        if t.record is not None:
            why = rollback_why(t.record, version)
        else:
            why = say("up_no_record", version, now)
        _say(say("up_rolled_back", why, now))
        return Exit.FAILED
    advice = say("up_advice", version, old, before["tries_max"], RECOVERY_KEY, old)
    if t.outcome == STILL_ON_TRIAL:
        _say(say("up_still_trial", version, t.seconds, t.info["tries"], t.info["tries_max"],
                 -(-t.info["confirm_left_ms"] // 1000), advice))
    elif t.outcome == NOT_SWITCHED:
        _say(say("up_not_switched", t.info["firmware"], t.seconds, version, advice))
    else:
        _say(say("up_silent", t.quiet, version, t.seconds, t.limit, advice))
    return Exit.FAILED
