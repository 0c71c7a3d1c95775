# Export speed on the simulated USB serial: `tafel export` of stored games against `mpremote cp` of the same files.
#
#   .venv/bin/python bench/export_speed.py [--games 100] [--baud 115200] [--flash IMG]
#
# 1. Plays N games (Anna, Ben, Cleo; standard to 200, so several rounds each)
#    by key script in the headless simulator onto a flash image (or reuses
#    --flash IMG if that file exists: playing takes a minute or two).
# 2. Runs the simulator on that image with its USB serial as a pseudo-terminal
#    paced to baud/10 bytes a second each way (host_tools/sim/serial.py) and
#    exports every game with the host's link client, counting bytes on the wire.
# 3. For comparison, the same journal files (data/games/*.tj on the image) are
#    copied with `mpremote cp -r`: once on the simulator's own port (its REPL
#    beside the link, firmware/sim/simusb.py, which runs in the simulated
#    device's 10 ms steps), counted through a pass-through pseudo-terminal;
#    and once from a MicroPython unix-port REPL (the image mounted read-only)
#    behind a pseudo-terminal paced the same way (sim/serial.py's Pacer), whose
#    REPL answers as fast as a device's C REPL would.
# The budget (DESIGN §8): the export keeps the line >= 90 % busy.
import argparse
import os
import pty
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "host"))  # the key-script games and the simulator launcher of the e2e tests

import sim_games  # noqa: E402
from benchlib import micropython_named, run_recorded  # noqa: E402
from benchlib import table as markdown  # noqa: E402
from simlink import SimPort, play  # noqa: E402
from tafel import wire  # noqa: E402
from tafel_host.link.client import Link  # noqa: E402
from tafel_host.sim import runtime as sim_runtime  # noqa: E402
from tafel_host.sim.launcher import find_micropython  # noqa: E402
from tafel_host.sim.serial import Pacer  # noqa: E402

BUDGET = 0.90

_MOUNT = """import sys, vfs
sys.path.insert(0, %r)
from sim.flashdev import FlashDev
vfs.mount(vfs.VfsLfs2(FlashDev(path=%r)), "/flash", readonly=True)
"""


def make_flash(path, games, target):
    plan = sim_games.plan(games, target=target)
    script = path.with_suffix(".txt")
    script.write_text(sim_games.script(plan))
    started = time.monotonic()
    play(script, path)
    return time.monotonic() - started, sum(len(rounds) for _, rounds in plan)


def tafel_export(flash, baud, tmp):
    idle = tmp / "idle.txt"
    idle.write_text("wait:10\n")
    with SimPort(idle, flash, tmp, baud=baud) as sim:
        link = Link.open(sim.port)
        got = []
        before_in, before_out = link.wire_in, link.wire_out
        started = time.monotonic()
        result = link.export(wire.ALL, on_game=lambda gid, flags, doc, size: got.append(doc))
        seconds = time.monotonic() - started
        wire_in, wire_out = link.wire_in - before_in, link.wire_out - before_out
        link.bye()
        link.close()
    return {"games": len(got), "rounds": sum(len(g["rounds"]) for g in got), "payload": result.received,
            "in": wire_in, "out": wire_out, "seconds": seconds}


class Proxy:
    """A pseudo-terminal for the client, copying both ways to and from `port`
    (a tty path) and counting the bytes; paced to `baud` if given."""

    def __init__(self, port=None, baud=None, fd=None):
        self.counts = {"in": 0, "out": 0}
        self.target = fd if fd is not None else os.open(port, os.O_RDWR | os.O_NOCTTY)
        if fd is None:
            tty.setraw(self.target)
        master, slave = pty.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        self._fds = [master, slave] + ([self.target] if fd is None else [])
        for src, dst, key in ((master, self.target, "in"), (self.target, master, "out")):
            pacer = Pacer(baud / 10) if baud else None
            threading.Thread(target=self._shuttle, args=(src, dst, key, pacer), daemon=True).start()

    def _shuttle(self, src, dst, key, pacer):
        while True:
            try:
                data = os.read(src, 64)
            except OSError:
                return
            if not data:
                return
            if pacer:
                pacer.take(len(data))
            self.counts[key] += len(data)
            try:
                os.write(dst, data)
            except OSError:
                return

    def close(self):
        for fd in self._fds:
            os.close(fd)


class PacedRepl:
    """A unix-port MicroPython REPL on a pseudo-terminal, reached through a Proxy paced to `baud`."""

    def __init__(self, setup, baud):
        repl_master, repl_slave = pty.openpty()
        tty.setraw(repl_slave)  # bytes as they are (mpremote expects "\r\n", not "\r\r\n")
        # 8 MB: the emulated chip keeps every written block of the image in the heap
        self.proc = subprocess.Popen([str(find_micropython()), "-X", "heapsize=8M", "-i", str(setup)],
                                     stdin=repl_slave, stdout=repl_slave, stderr=repl_slave, close_fds=True)
        os.close(repl_slave)
        # Wait for the prompt: mpremote's Ctrl-C would otherwise cut the setup (the image's mount) short.
        seen, deadline = b"", time.monotonic() + 60
        while b">>> " not in seen and time.monotonic() < deadline:
            if select.select([repl_master], [], [], 0.5)[0]:
                seen += os.read(repl_master, 1024)
        self.master = repl_master
        self.proxy = Proxy(fd=repl_master, baud=baud)
        self.path, self.counts = self.proxy.path, self.proxy.counts

    def close(self):
        self.proc.kill()
        self.proc.wait()
        self.proxy.close()
        os.close(self.master)


def _mpremote():
    return shutil.which("mpremote", path=str(Path(sys.executable).parent)) or shutil.which("mpremote")


def _copy(mpremote, port, src, out, counts):
    # "resume": no soft reset (it would restart the firmware, or end the unix port)
    command = [mpremote, "connect", port, "resume", "cp", "-r", src, str(out) + "/"]
    before = dict(counts)
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    seconds = time.monotonic() - started
    if done.returncode:
        return None, "mpremote failed: %s" % (done.stderr.strip().splitlines() or ["?"])[-1]
    files = list((out / "games").glob("*.tj"))
    return {"games": len(files), "payload": sum(f.stat().st_size for f in files),
            "in": counts["out"] - before["out"], "out": counts["in"] - before["in"], "seconds": seconds}, None


def mpremote_sim(flash, baud, tmp):
    """mpremote cp -r of data/games on the simulator's own port (its REPL beside the link)."""
    mpremote = _mpremote()
    if not mpremote:
        return None, "mpremote is not installed (pip install mpremote)"
    idle = tmp / "idle.txt"
    idle.write_text("wait:10\n")
    with SimPort(idle, flash, tmp, baud=baud) as sim:
        proxy = Proxy(sim.port)
        try:
            out = tmp / "copied-sim"
            out.mkdir()
            return _copy(mpremote, proxy.path, ":data/games", out, proxy.counts)
        finally:
            proxy.close()


def mpremote_repl(flash, baud, tmp):
    """mpremote cp -r of the same files from a unix-port REPL behind the same pacing."""
    mpremote = _mpremote()
    if not mpremote:
        return None, "mpremote is not installed (pip install mpremote)"
    setup = tmp / "mount.py"
    setup.write_text(_MOUNT % (str(ROOT / "firmware"), str(flash)))
    repl = PacedRepl(setup, baud)
    try:
        out = tmp / "copied-repl"
        out.mkdir()
        return _copy(mpremote, repl.path, ":/flash/data/games", out, repl.counts)
    finally:
        repl.close()


def table(columns, baud):
    rate = baud / 10
    lines = [tuple(label for label, _ in [("what", None)] + columns)]
    for label, fn in (
        ("games", lambda g: "%d" % g["games"]),
        ("journal bytes", lambda g: "%d" % g["payload"]),
        ("wire bytes device -> host", lambda g: "%d" % g["in"]),
        ("wire bytes host -> device", lambda g: "%d" % g["out"]),
        ("seconds", lambda g: "%.2f" % g["seconds"]),
        ("share of line rate (device -> host)", lambda g: "%.1f %%" % (100 * g["in"] / (g["seconds"] * rate))),
        ("journal bytes / wire bytes", lambda g: "%.1f %%" % (100 * g["payload"] / g["in"])),
        ("games per second", lambda g: "%.1f" % (g["games"] / g["seconds"])),
    ):
        lines.append((label,) + tuple(fn(got) if got else "-" for _, got in columns))
    return markdown(lines[0], lines[1:], "l" + "r" * len(columns))


def main():
    parser = argparse.ArgumentParser(description="tafel export against mpremote cp of the same games on the simulated link")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--target", type=int, default=200, help="each game is played to this target")
    parser.add_argument("--baud", type=int, default=115200)
    parser.add_argument("--flash", help="flash image with the games (played onto it first if it does not exist)")
    parser.add_argument("--no-mpremote", action="store_true", help="skip the mpremote comparison")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tafel-export-bench-"))
    try:
        flash = Path(args.flash) if args.flash else tmp / "flash.img"
        if flash.exists():
            print("flash image %s (reused)" % flash)
        else:
            seconds, rounds = make_flash(flash, args.games, args.target)
            print("played %d games (%d rounds) by key script in %.0f s" % (args.games, rounds, seconds))
        export = tafel_export(flash, args.baud, tmp)
        columns = [("tafel export", export)]
        notes = []
        if not args.no_mpremote:
            for label, run in (("mpremote cp (sim port)", mpremote_sim), ("mpremote cp (paced REPL)", mpremote_repl)):
                got, why = run(flash, args.baud, tmp)
                columns.append((label, got))
                if why:
                    notes.append("%s: %s" % (label, why))
        print("export of %d stored games at %d baud on the simulated link (%d bytes/s each way)\n"
              % (export["games"], args.baud, args.baud // 10))
        print(table(columns, args.baud))
        for note in notes:
            print("\n" + note)
        share = export["in"] / (export["seconds"] * args.baud / 10)
        print("\nbudget: >= %d %% of line rate on the wire: %.1f %% (%s)"
              % (100 * BUDGET, 100 * share, "met" if share >= BUDGET else "NOT met"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(run_recorded(main, "export_speed", measured_on=lambda: micropython_named(
        sim_runtime.device_build(ROOT) or find_micropython())))
