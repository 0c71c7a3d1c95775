# `tafel calibrate`: the heap scenarios of make heap played on a real board, measured by the chip itself.
#
#   tafel calibrate                         # the tour and the evening on the one Tafel plugged in
#   tafel calibrate --port COM4 --only tour --json board.json
#
# The virtual chip (firmware/port/README.md) models the ESP32's heap, ESP-IDF's memory and the
# C stack from sources; this is how the first person with a board checks it. The app must be
# running (its link answers: the device's id and version go into the report). Then, over the
# same USB serial, mpremote stops it, soft-resets into MicroPython's raw REPL (boot.py runs,
# main.py does not, so the heap holds nothing of the app), and runs onboard/calibrate.py there: it
# builds the app as firmware/assemble.py does on the board's own display and keypad, on a
# scratch store (calib/ beside data/; the table's games and settings are never touched), and
# presses each scenario's keys (heap_keys.py), a chunk at a time, measuring after every key.
# At the end the scratch store is removed and the board restarts its app.
#
# Not played here: the export, the USB update and the Wi-Fi update (they need the link, and
# the port is the REPL's while this runs). Exit codes: 0 done, 1 the board failed or stopped
# answering, 2 usage, 3 no device found.
import json
import sys
import time
from pathlib import Path

from ..exits import Exit
from ..lang import say
from ..link import ports
from ..link.client import BAUD, Link
from ..link.errors import LinkError
from ..update.flash_install import Board, InstallError
from . import heap_keys

MARK = "TAFELCAL"
PLAYED = ("tour", "evening")  # of heap_keys.SCENARIOS: those played by keys alone
CHUNK = 200  # keys sent in one exec: a chunk's source is compiled in the board's heap
CHIP = Path(__file__).parent / "onboard" / "calibrate.py"  # the board's side, sent as text


def add_parser(commands):
    cmd = commands.add_parser("calibrate", help=say("hp_calibrate"), description=say("hp_calibrate_d", ", ".join(PLAYED)))
    cmd.add_argument("--port", metavar="PORT", help=say("hp_calibrate_port", ports.ENV))
    cmd.add_argument("--baud", type=int, default=BAUD, help=say("hp_calibrate_baud"))
    cmd.add_argument("--only", metavar=say("m_list"), default=",".join(PLAYED), help=say("hp_calibrate_only"))
    cmd.add_argument("--json", metavar=say("m_file"), help=say("hp_calibrate_json"))
    cmd.set_defaults(run=run)
    return cmd


def _say(text):
    print("tafel calibrate: %s" % text, file=sys.stderr)


def scenario_keys(name):
    """The scenario's keys as one string of tokens (key names and wait:<ms>)."""
    steps = heap_keys.evening_keys() if name == "evening" else heap_keys.tour_keys()
    return " ".join(keys for keys, _ in steps)


def commands(names, chunk=CHUNK):
    """mpremote's exec commands: the chip's code, then each scenario's keys in chunks, then the end."""
    out = [("exec", CHIP.read_text(encoding="utf-8") + "\ncal = Cal()\ncal.end()\n")]
    for name in names:
        out.append(("exec", "cal.begin(%r)" % name))
        tokens = scenario_keys(name).split()
        for i in range(0, len(tokens), chunk):
            out.append(("exec", "cal.play(%r)\nprint(%r, cal.keys)" % (" ".join(tokens[i:i + chunk]),
                                                                      MARK + "-KEYS")))
        out.append(("exec", "cal.end()"))
    out.append(("exec", "cal.close()"))
    return out


def parse(lines):
    """(rows, other): the chip's figures, one dict a scenario, and the lines that were not figures."""
    rows, other = [], []
    for line in lines:
        if line.startswith(MARK + " "):
            rows.append(json.loads(line[len(MARK) + 1:]))
        elif not line.startswith(MARK):
            other.append(line)
    return rows, other


def table(rows):
    """The figures as a table in make heap's terms (KB; ms from a key to the drawn screen)."""
    head = tuple(say("cal_head").split("|"))
    out = [head]
    for r in rows:
        idf = r.get("idf")
        out.append((r["scenario"], str(r["keys"]), _kb(r["peak"]), _kb(r["free_at_peak"]), _kb(r["heap"]),
                    _kb(r["base"]), "%d B" % r["stack"],
                    " / ".join(_kb(x) for x in idf) if idf else "-",
                    "%d / %d / %d ms" % (r["median_ms"], r["p95_ms"], r["worst_ms"]), str(r["seconds"]),
                    str(r["errors"])))
    widths = [max(len(row[i]) for row in out) for i in range(len(head))]
    lines = []
    for k, row in enumerate(out):
        lines.append("| " + " | ".join(row[i].ljust(widths[i]) if i == 0 else row[i].rjust(widths[i])
                                       for i in range(len(row))) + " |")
        if k == 0:
            lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def _kb(n):
    return "%.1f KB" % (n / 1024)


def run(args):
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in PLAYED]
    if unknown or not names:
        _say(say("cal_only", ", ".join(PLAYED), ", ".join(unknown) or say("cal_nothing")))
        return Exit.USAGE
    try:
        port, link = ports.find(lambda name: Link.open(name, args.baud), port=args.port)
    except ports.PortError as err:
        _say(err)
        return err.code
    device = {"id": link.hello.get("id"), "firmware": link.hello.get("fw")}
    try:
        link.bye(wait=True)
    except LinkError:
        pass
    finally:
        link.close()
    print(say("cal_start", device["id"], say("cal_app_running"), device["firmware"], port, ", ".join(names)),
          flush=True)
    board = Board(port, timeout=3600.0)
    started = time.monotonic()
    try:
        lines = _play(board, names)
    except InstallError as err:
        _say(str(err).replace("mpremote", say("cal_repl"), 1))
        _restart(board)
        return Exit.FAILED
    rows, other = parse(lines)
    _restart(board)
    if not any(line.startswith(MARK + "-DONE") for line in lines) or len(rows) != len(names) + 1:
        _say(say("cal_stopped") + "\n  ".join(other[-8:]))
        return Exit.FAILED
    print(table(rows))
    print(say("cal_note", time.monotonic() - started))
    if args.json:
        report = {"device": device, "port": port, "scenarios": rows, "mem_info": [x for x in other if x.strip()]}
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(say("cal_written", args.json))
    return Exit.OK if all(r["errors"] == 0 for r in rows) else Exit.FAILED


def _play(board, names):
    todo = commands(names)
    chunks = len([c for c in todo if c[1].startswith("cal.play(")])
    done = [0]

    def progress(line):
        if line.startswith(MARK + "-KEYS "):
            done[0] += 1
            print(say("cal_chunks", done[0], chunks), file=sys.stderr, flush=True)

    return board.run(*todo, on_line=progress, soft_reset=True)


def _restart(board):
    try:
        board.soft_reboot()  # boot.py, then main.py: the table's app again
    except OSError:
        pass
