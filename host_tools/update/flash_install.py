# `tafel flash`, step 2: the application onto a board that runs MicroPython, with mpremote.
#
# What lands on the board (the layout of firmware/bootsel.py):
#   /boot.py, /bootsel.py   from this checkout (never updated over the air, so never in a bundle)
#   /board.json             the board profile, read by main.py at start-up
#   /app/<slot>/...         the bundle's files, checked on the laptop first; on a Tafel firmware
#                           image only those its frozen appimage does not hold (firmware/port)
#   /app/current            the pointer, confirmed (tries null), written last by write-new-then-rename
# /data (games, settings) is never touched. mpremote runs as `python -m mpremote`
# of this interpreter with `resume` (no soft reset before the commands: boot.py
# would run and pick a slot). Remote paths are relative to the flash's root,
# which the first exec of every invocation makes the current folder: / on an
# ESP32, /flash in the simulator (MicroPython's unix port, where sim/simusb.py
# mounts the flash image). Device-side code is kept to what stock MicroPython has.
import json
import subprocess
import sys
import threading
import time

from ..lang import say

ANSWER_TIMEOUT = 30.0  # for the app to come up after the reboot and answer the handshake
MARK = "TAFELFLASH"  # lines the device-side snippets print for the laptop to read
# Every snippet works from the flash's root: / on a board (whose REPL is left in the slot folder
# boot.py chose), /flash where the simulator's REPL mounts a development flash (sim/simusb.py).
ROOT = "import os, sys\ntry:\n    os.chdir('/flash')\nexcept OSError:\n    os.chdir('/')\n"

PROBE = ROOT + """import json
def _read(p):
    try:
        with open(p) as f:
            return f.read()
    except OSError:
        return None
_s = os.statvfs('.')
try:  # a Tafel firmware image: what it holds frozen, a line a file (a board's heap is small)
    import appimage, binascii
    for _i in range(len(appimage.FILES)):
        print('%s-IMAGE', appimage.FILES[_i], binascii.hexlify(appimage.DIGESTS[_i]).decode())
except ImportError:
    pass
try:  # every boot of a Tafel app runs a 60 s watchdog (bootsel.py), an app that failed too: the install gets 30 min
    import machine
    machine.WDT(timeout=1800000)
except Exception:  # a port without one
    pass
print('%s', json.dumps({'pointer': _read('app/current'), 'free': _s[0] * _s[3],
                        'mpy': getattr(sys.implementation, '_mpy', 0) & 255}))
""" % (MARK, MARK)

MKDIRS = ROOT + """for _d in %r:
    try:
        os.mkdir(_d)
    except OSError:
        pass
"""

# Every file of the slot is hashed on the board; files no manifest entry names (an older
# install's) are removed; the root files are hashed too. The laptop compares.
VERIFY = ROOT + """import hashlib, binascii
_want = set(%r)
_buf = bytearray(512)
def _hash(p):
    h = hashlib.sha256()
    with open(p, 'rb') as f:
        while True:
            n = f.readinto(_buf)
            if not n:
                break
            h.update(memoryview(_buf)[:n])
    return binascii.hexlify(h.digest()).decode()
def _walk(top, rel):
    for e in os.ilistdir(top):
        p, r = top + '/' + e[0], rel + e[0]
        if e[1] == 0x4000:
            _walk(p, r + '/')
        elif r in _want:
            print('%s', 'slot', r, _hash(p))
        else:
            os.remove(p)
            print('%s', 'removed', r)
try:
    os.stat(%r)
except OSError:
    pass  # no slot yet
else:
    _walk(%r, '')
for _p in %r:
    try:
        print('%s', 'root', _p, _hash(_p))
    except OSError:
        pass
"""

POINTER = ROOT + """with open('app/current.new', 'w') as f:
    f.write(%r)
os.rename('app/current.new', 'app/current')
print('%s', 'pointer')
"""


class InstallError(Exception):
    """The board did not take the install; the text says why (exit code 1)."""


def mpremote_argv(port, *commands, soft_reset=False):
    """One mpremote invocation: connect, resume (or with soft_reset, mpremote's own soft reset into
    the raw REPL: boot.py runs, main.py does not), then the commands chained with '+'."""
    argv = [sys.executable, "-m", "mpremote", "connect", port] + ([] if soft_reset else ["resume"])
    for i, command in enumerate(commands):
        argv += (["+"] if i else []) + list(command)
    return argv


def parse_pointer(text):
    """The pointer as firmware/bootsel.read takes it: a dict with slot a or b, else None."""
    try:
        st = json.loads(text) if text else None
    except ValueError:
        return None
    return st if isinstance(st, dict) and st.get("slot") in ("a", "b") else None


def pointer_text(slot, version, prev=None):
    """The confirmed pointer of an install (as sim/install.py leaves it: nothing on trial); prev: the
    slot of the version installed before it, still whole (None: nothing to go back to)."""
    return json.dumps({"slot": slot, "prev": prev, "version": version, "prev_version": None, "id": "",
                       "prev_id": "", "tries": None, "crashes": None})


class Board:
    """The mpremote side of one port: run device snippets, copy files, soft-reboot."""

    def __init__(self, port, timeout=300.0):
        self.port = port
        self.timeout = timeout

    def run(self, *commands, on_line=None, timeout=None, soft_reset=False):
        """Output lines of one mpremote invocation; InstallError if it fails."""
        argv = mpremote_argv(self.port, *commands, soft_reset=soft_reset)
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                errors="replace")
        lines = []
        # mpremote waits for the board without a limit of its own, silently: a timer ends it,
        # since reading its output would otherwise wait for ever too.
        limit = timeout or self.timeout
        expired = threading.Event()

        def expire():
            expired.set()
            proc.kill()

        timer = threading.Timer(limit, expire)
        timer.start()
        try:
            for line in proc.stdout:  # mpremote prints a line before each copy: progress
                lines.append(line.rstrip("\r\n"))
                if on_line:
                    on_line(lines[-1])
            code = proc.wait()
        finally:
            timer.cancel()
        if expired.is_set():
            raise InstallError(say("fl_mpremote_slow", self.port, limit))
        if code != 0:
            tail = "; ".join(x for x in lines[-3:] if x.strip()) or say("fl_exit_status", code)
            raise InstallError(say("fl_mpremote_failed", self.port, tail))
        return lines

    @staticmethod
    def marked(lines):
        """The words after MARK of each marked line."""
        return [line.split(" ", 1)[1].split(" ") for line in lines if line.startswith(MARK + " ")]

    def probe(self, wait=30.0):
        """{"pointer", "free", "mpy", "image"} once MicroPython's REPL answers (retried until `wait` is over).

        image: {bundle path: SHA-256 hex} of what a Tafel firmware image holds frozen; {} on stock MicroPython."""
        deadline = time.monotonic() + wait
        while True:
            try:
                lines = self.run(("exec", PROBE), timeout=20)
                image = {}
                for line in lines:
                    if line.startswith(MARK + "-IMAGE "):
                        _, path, digest = line.split()
                        image[path] = digest
                    elif line.startswith(MARK + " "):
                        info = json.loads(line.split(" ", 1)[1])
                        info["image"] = image
                        return info
                raise InstallError(say("fl_not_micropython", "; ".join(lines[-3:])))
            except InstallError:
                if time.monotonic() >= deadline:
                    raise
                time.sleep(1.0)

    def soft_reboot(self):
        """Leave the raw REPL and press Ctrl-D at the prompt: boot.py, then the slot's main.py."""
        import serial

        with serial.serial_for_url(self.port, baudrate=115200, timeout=0.5, write_timeout=5) as port:
            port.write(b"\r\x03\x02")  # a fresh line at the friendly prompt
            port.flush()
            time.sleep(0.3)
            port.reset_input_buffer()
            port.write(b"\x04")
            port.flush()
            time.sleep(0.3)


def install_commands(slot, files, root_files, dirs):
    """The mpremote commands that put the files on the board (before the check and the pointer).

    files: [(device path in the slot, local file)]; root_files: [(device path, local file)]."""
    commands = [("exec", MKDIRS % (dirs,))]
    # -f: no hash check per file by mpremote (three round trips each); the check before and
    # after the copy (VERIFY) hashes them all in one go and picks what needs copying
    for rel, local in files:
        commands.append(("fs", "cp", "-f", str(local), ":app/%s/%s" % (slot, rel)))
    for rel, local in root_files:  # boot.py last: until it is there the board boots as before
        commands.append(("fs", "cp", "-f", str(local), ":" + rel))
    return commands


def slot_dirs(slot, paths):
    """Every folder the slot's files need, parents first."""
    dirs = ["app", "app/" + slot]
    for path in paths:
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "app/%s/%s" % (slot, "/".join(parts[:i]))
            if d not in dirs:
                dirs.append(d)
    return dirs


def verify_command(slot, wanted, root_names):
    return ("exec", VERIFY % (sorted(wanted), MARK, MARK, "app/" + slot, "app/" + slot, list(root_names), MARK))


def pointer_command(text):
    return ("exec", POINTER % (text, MARK))


def differences(lines, expected_slot, expected_root):
    """([slot paths], [root paths]) whose hash on the board is not the expected {path: hex}, and
    the paths VERIFY removed."""
    seen = {"slot": {}, "root": {}}
    removed = []
    for words in Board.marked(lines):
        if words[0] in seen:
            seen[words[0]][words[1]] = words[2]
        elif words[0] == "removed":
            removed.append(words[1])
    return ([p for p, digest in sorted(expected_slot.items()) if seen["slot"].get(p) != digest],
            [p for p, digest in sorted(expected_root.items()) if seen["root"].get(p) != digest], removed)


def check_hashes(lines, expected_slot, expected_root):
    """After the copy: every file as expected, else InstallError; returns the paths removed."""
    slot, root, removed = differences(lines, expected_slot, expected_root)
    bad = [say("fl_differs", p) for p in slot + root]
    if bad:
        raise InstallError(say("fl_mismatch", ", ".join(bad[:5]), " ..." if len(bad) > 5 else ""))
    return removed


def answer(port, version, timeout=ANSWER_TIMEOUT):
    """The version the app says in the link handshake after the reboot (None if it does not answer)."""
    from ..link.client import Link
    from ..link.errors import LinkError

    deadline, seen = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        try:
            link = Link.open(port)
        except (LinkError, OSError):
            time.sleep(0.5)
            continue
        seen = link.hello.get("fw")
        try:
            link.bye()
        except LinkError:
            pass
        link.close()
        if seen == version:
            break
        time.sleep(0.5)
    return seen


class FileBar:
    """A rich bar counting the files mpremote copies (its 'cp' lines), on standard error if it is a terminal."""

    def __init__(self, total, label):
        self.total, self.label, self.bar = total, label, None

    def __enter__(self):
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                TimeElapsedColumn(), console=Console(stderr=True))
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=self.total)
        return self

    def line(self, text):
        if self.bar is not None and text.startswith("cp "):
            self.bar.advance(self.task)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
