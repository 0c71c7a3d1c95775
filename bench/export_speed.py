# Export speed on the simulated USB serial: `tafel export` of stored games against `mpremote cp` of the same files.
#
#   .venv/bin/python bench/export_speed.py [--games 100] [--baud 115200] [--flash IMG]
#
# 1. Plays N games (Anna, Ben, Cleo; standard to 200, so several rounds each)
#    by key script in the headless simulator onto a flash image (or reuses
#    --flash IMG if that file exists: playing takes a minute or two).
# 2. Runs the simulator on that image with its USB serial as a pseudo-terminal
#    paced to baud/10 bytes a second each way (host_tools/sim_serial.py) and
#    exports every game with the host's link client, counting bytes on the wire.
# 3. For comparison, the same journal files (games/*.tj on the same image,
#    mounted read-only) are copied with `mpremote cp -r` from a MicroPython
#    unix-port REPL behind a pseudo-terminal paced the same way (the
#    simulator's own serial carries only the link, no REPL, so mpremote
#    needs a REPL of its own; the line model, sim_serial.Pacer, is the same).
# The budget (DESIGN §8): the export keeps the line >= 90 % busy.
import argparse
import os
import pty
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
from simlink import SimPort, play  # noqa: E402
from tafel import wire  # noqa: E402
from tafel_host.link_client import Link  # noqa: E402
from tafel_host.sim import find_micropython  # noqa: E402
from tafel_host.sim_serial import Pacer  # noqa: E402

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


class PacedRepl:
    """A unix-port MicroPython REPL on a pseudo-terminal, reached through a second one paced to `baud`."""

    def __init__(self, setup, baud):
        self.counts = {"in": 0, "out": 0}
        repl_master, repl_slave = pty.openpty()
        host_master, host_slave = pty.openpty()
        tty.setraw(repl_slave)  # bytes as they are (mpremote expects "\r\n", not "\r\r\n")
        tty.setraw(host_slave)
        self.path = os.ttyname(host_slave)
        self._fds = [repl_master, repl_slave, host_master, host_slave]
        self.proc = subprocess.Popen([str(find_micropython()), "-i", str(setup)], stdin=repl_slave,
                                     stdout=repl_slave, stderr=repl_slave, close_fds=True)
        rate = baud / 10
        for src, dst, key in ((host_master, repl_master, "in"), (repl_master, host_master, "out")):
            threading.Thread(target=self._shuttle, args=(src, dst, key, Pacer(rate)), daemon=True).start()

    def _shuttle(self, src, dst, key, pacer):
        while True:
            try:
                data = os.read(src, 64)
            except OSError:
                return
            if not data:
                return
            pacer.take(len(data))
            self.counts[key] += len(data)
            try:
                os.write(dst, data)
            except OSError:
                return

    def close(self):
        self.proc.kill()
        self.proc.wait()
        for fd in self._fds:
            os.close(fd)


def mpremote_cp(flash, baud, tmp):
    mpremote = shutil.which("mpremote", path=str(Path(sys.executable).parent)) or shutil.which("mpremote")
    if not mpremote:
        return None, "mpremote is not installed (pip install mpremote)"
    setup = tmp / "mount.py"
    setup.write_text(_MOUNT % (str(ROOT / "firmware"), str(flash)))
    repl = PacedRepl(setup, baud)
    try:
        out = tmp / "copied"
        out.mkdir()
        # "resume": no soft reset, which would end the unix port instead of restarting it
        command = [mpremote, "connect", repl.path, "resume", "cp", "-r", ":/flash/data/games", str(out) + "/"]
        started = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True, timeout=900)
        seconds = time.monotonic() - started
        if done.returncode:
            return None, "mpremote failed: %s" % (done.stderr.strip().splitlines() or ["?"])[-1]
        files = list((out / "games").glob("*.tj"))
        return {"games": len(files), "payload": sum(f.stat().st_size for f in files), "in": repl.counts["out"],
                "out": repl.counts["in"], "seconds": seconds}, None
    finally:
        repl.close()


def table(rows, baud):
    rate = baud / 10
    lines = [("", "tafel export", "mpremote cp")]

    def cell(got, fn):
        return fn(got) if got else "-"

    export, copy = rows
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
        lines.append((label, cell(export, fn), cell(copy, fn)))
    widths = [max(len(row[i]) for row in lines) for i in range(3)]
    return "\n".join("%-*s  %*s  %*s" % (widths[0], a, widths[1], b, widths[2], c) for a, b, c in lines)


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
        copy, why = (None, "skipped") if args.no_mpremote else mpremote_cp(flash, args.baud, tmp)
        print("export of %d stored games at %d baud on the simulated link (%d bytes/s each way)\n"
              % (export["games"], args.baud, args.baud // 10))
        print(table((export, copy), args.baud))
        if why:
            print("\nmpremote cp: %s" % why)
        share = export["in"] / (export["seconds"] * args.baud / 10)
        print("\nbudget: >= %d %% of line rate on the wire: %.1f %% (%s)"
              % (100 * BUDGET, 100 * share, "met" if share >= BUDGET else "NOT met"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
