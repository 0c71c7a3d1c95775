# `tafel info`, `tafel export` and the session every command that talks to a device runs in
# (roster_cli.py: `tafel roster`, `tafel clock`; update/client.py: `tafel update`).
#
#   tafel info                                # the device, its flash, clock, update state, rollbacks, games (info.py)
#   tafel export                              # every game: tafel-<device>-<time>.json
#   tafel export --since -o new.csv --format csv   # what changed since the last export (or resume one cut short)
#   tafel export --excel -o abend.csv         # CSV as Excel opens it (export.to_csv)
# Every command takes --port (a device path or pyserial URL; else TAFEL_PORT, else
# auto-detection) and --baud (default 115200).
# Exit codes: 0 ok, 1 the device or the transfer failed (export: also when the file is written
# but marking its games on the device failed - it says so), 2 usage (export: an output file that
# cannot be written, refused before anything is sent), 3 no device found, 4 the device is at the
# MicroPython prompt (errors.AtRepl, through ports.PortError); 141 when standard
# output's reader went away (`tafel info | head`, host_tools/cli.py).
import os
import sys
import time
from pathlib import Path

from tafel import wire
from tafel.cursor import format_cursor, parse_cursor

from ..exits import Exit
from ..lang import count as count_text
from ..lang import say as say_text
from ..progress import Bar
from . import export, export_xlsx, info, ports, salvage, storage_notes
from .client import BAUD, Link
from .errors import DeviceError, DeviceGone, LinkError
from .export_state import DeviceState
from .info import CONFIRMED, ON_TRIAL, PROBATION, rollback_when, rollback_why, update_state  # noqa: F401

LAST = "last"  # --since without a cursor


def port_options(cmd, top=True):
    # On a subcommand's own parser too; there it must not reset what was given before it.
    import argparse

    keep = {} if top else {"default": argparse.SUPPRESS}
    cmd.add_argument("--port", metavar="PORT", **keep, help=say_text("hp_port", ports.ENV))
    cmd.add_argument("--baud", type=int, help=say_text("hp_baud", BAUD), **(keep or {"default": BAUD}))


def _cursor(text):
    if text == LAST:
        return text
    try:
        parse_cursor(text)
    except ValueError as err:
        import argparse

        raise argparse.ArgumentTypeError(str(err)) from None
    return text


def add_parsers(commands):
    cmd = commands.add_parser("info", help=say_text("hp_info"), description=say_text("hp_info_d"))
    port_options(cmd)
    cmd.set_defaults(run=run_info)

    cmd = commands.add_parser("export", help=say_text("hp_export"), description=say_text("hp_export_d"))
    port_options(cmd)
    cmd.add_argument("-o", "--output", metavar=say_text("m_file"), help=say_text("hp_export_output"))
    cmd.add_argument("--format", choices=("json", "csv", "xlsx"), help=say_text("hp_export_format"))
    cmd.add_argument("--excel", action="store_true", help=say_text("hp_export_excel"))
    which = cmd.add_mutually_exclusive_group()
    which.add_argument("--all", action="store_true", help=say_text("hp_export_all"))
    which.add_argument("--since", nargs="?", const=LAST, type=_cursor, metavar=say_text("m_cursor"),
                       help=say_text("hp_export_since"))
    cmd.set_defaults(run=run_export)


def say(text):
    print("tafel: %s" % text, file=sys.stderr)


def connect(args):
    """(link, None) or (None, exit code) with the reason printed."""
    baud = args.baud
    try:
        _, link = ports.find(lambda port: Link.open(port, baud), port=args.port)
        return link, None
    except ports.PortError as err:
        say(err)
        return None, err.code


def session(args, work):
    link, code = connect(args)
    if link is None:
        return code
    try:
        code = work(link)
        try:
            link.bye(wait=code == Exit.OK)  # after a failure (a noisy line, a device gone) no 15 s of asking
        except LinkError:
            if code == Exit.OK:
                raise
            # the work failed and said why; a device gone by now is no second message
        return code
    except DeviceError as err:
        say(err)
        return Exit.FAILED
    except LinkError as err:
        say(say_text("on_port", err, args.port or say_text("the_port")))
        return getattr(err, "exit_code", Exit.FAILED)  # 4: the app stopped at the prompt meanwhile
    finally:
        link.close()


# ---- info --------------------------------------------------------------------------

def run_info(args):
    return session(args, info.show)


# ---- export ------------------------------------------------------------------------

def run_export(args):
    named = (args.output or "").lower()
    fmt = args.format or ("csv" if args.excel or named.endswith(".csv") else "xlsx" if named.endswith(".xlsx")
                          else "json")
    if args.excel and fmt != "csv":
        say(say_text("excel_is_csv"))
        return Exit.USAGE
    if fmt == "xlsx" and not export_xlsx.available():  # said before the transfer, not after it
        say(say_text("xlsx_needs_openpyxl"))
        return Exit.USAGE
    problem = export.output_problem(args.output)
    if problem:
        say(problem + say_text("nothing_asked"))
        return Exit.USAGE
    return session(args, lambda link: _export(link, args, fmt))


def _export(link, args, fmt):
    device, state = link.hello["id"], DeviceState(link.hello["id"])
    games, marks, resume, cursor = {}, {}, False, None
    if args.since == LAST:
        spool = state.spooled()
        if spool:
            games, cursor, marks = spool
            resume = True
            say(say_text("continuing", len(games)))
            if marks:
                link.mark(sorted(marks.items()))  # what SINCE relies on: those are home
        else:
            cursor = state.cursor()
            if cursor is None:
                say(say_text("no_earlier_export", device))
    elif args.since:
        cursor = args.since
    try:
        report = link.info()["storage_report"]  # what the boot check found, into the file
    except (DeviceError, ValueError):  # an INFO this tafel cannot read: the games matter more
        report = None
    state.begin(cursor, keep=resume)
    in_order = [True]  # every game so far came whole: the spool's cursor may follow

    def keep(game_id, flags, doc, size):
        if doc is None:
            in_order[0] = False
            return
        old = games.get(game_id)
        if old is None or (old.get("records") or 0) <= (doc.get("records") or 0):
            games[game_id] = doc
            marks.pop(game_id, None)
            if not flags & wire.LIVE:
                marks[game_id] = size
        # Only a firmware without a change log has a cursor after each game ("G:S",
        # docs/protocol.md); with one, an export cut short resumes from the cursor
        # it began with (a game another laptop took home meanwhile is not missed).
        legacy = in_order[0] and getattr(link, "export_changes", None) is None
        state.add(doc, format_cursor(game_id, doc["records"]) if legacy else None,
                  None if flags & wire.LIVE else size)

    bar = Bar("export " + device)
    try:
        result = link.export(wire.SINCE if cursor else wire.ALL, cursor, keep, bar)
        for game_id in result.changed:  # changed while sent: once more, alone
            try:
                link.export(wire.ONE, game_id, keep)
            except DeviceError as err:
                if err.code != "no_game":
                    raise
    except (DeviceGone, KeyboardInterrupt) as err:
        state.end(False)
        bar.stop()  # before the message, so it is not drawn over
        gone = say_text("interrupted") if isinstance(err, KeyboardInterrupt) else str(err)
        say(say_text("export_cut" if len(games) != 1 else "export_cut_one", gone, len(games)))
        return Exit.FAILED if not isinstance(err, KeyboardInterrupt) else Exit.INTERRUPTED
    finally:
        bar.stop()
    for text in salvage.tell(games, result.unplaced, result.unreadable):
        say(text)
    for text in storage_notes.losses(report):  # what the device's boot check could not bring back
        say(say_text("device_flash_check", text))
    doc = export.document(device, link.hello["fw"], list(games.values()), cursor=result.cursor,
                          storage_report=report, unreadable=result.unplaced)
    count = count_text(len(games), "game")
    try:
        out = write_output(doc, fmt, args.output, device, args.excel)
    except OSError as err:  # checked before the transfer; a disk that filled up since: the spool keeps them
        state.end(False)
        say(say_text("cannot_write_kept", args.output or say_text("the_export"), err.strerror or err, count))
        return Exit.FAILED
    try:
        if marks:
            link.mark(sorted(marks.items()))
    except (LinkError, KeyboardInterrupt) as err:  # the file is whole; the spool stays, the next --since marks them
        state.end(False)
        why = say_text("interrupted") if isinstance(err, KeyboardInterrupt) else str(err)
        say(say_text("mark_failed", out, count, why))
        return Exit.FAILED if not isinstance(err, KeyboardInterrupt) else Exit.INTERRUPTED
    state.save_cursor(result.cursor)
    state.end(True)
    rate = result.wire_in / result.seconds if result.seconds else 0
    print(say_text("exported_line", out, count, count_text(sum(len(g["rounds"]) for g in games.values()), "round"),
                   device, result.received, result.seconds, rate, result.cursor),
          file=sys.stderr if out == "-" else sys.stdout)
    return Exit.OK


def write_output(doc, fmt, output, device, excel=False):
    data = export_xlsx.to_xlsx(doc) if fmt == "xlsx" else export.render(doc, fmt, excel)
    if output == "-":
        if isinstance(data, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(data)
            sys.stdout.flush()
        return "-"
    if not output:
        output = "tafel-%s-%s.%s" % (device, time.strftime("%Y%m%d-%H%M%S"), fmt)
    path = Path(output)
    tmp = path.with_name(path.name + ".part")
    if isinstance(data, bytes):
        tmp.write_bytes(data)
    else:
        tmp.write_text(data, encoding="utf-8", newline="")
    os.replace(tmp, path)
    return str(path)
