# `tafel info`, `tafel export` and the session every command that talks to a device runs in
# (roster_cli.py: `tafel roster`, `tafel clock`; update/client.py: `tafel update`).
#
#   tafel info                                # the device, its flash, clock, update state, rollbacks, games
#   tafel export                              # every game: tafel-<device>-<time>.json
#   tafel export --since -o new.csv --format csv   # what changed since the last export (or resume one cut short)
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
from tafel.names import shown

from ..exits import Exit
from ..progress import Bar
from . import export, ports, salvage, storage_notes
from .client import BAUD, Link
from .errors import DeviceError, DeviceGone, LinkError
from .export_state import DeviceState

LAST = "last"  # --since without a cursor


def port_options(cmd, top=True):
    # On a subcommand's own parser too; there it must not reset what was given before it.
    import argparse

    keep = {} if top else {"default": argparse.SUPPRESS}
    cmd.add_argument("--port", metavar="PORT", **keep,
                     help="device path (/dev/ttyUSB0, /dev/cu.usbserial-0001, COM3) or pyserial URL; "
                          "default: $%s, else auto-detect" % ports.ENV)
    cmd.add_argument("--baud", type=int, help="line rate on UART bridges (default: %d)" % BAUD,
                     **(keep or {"default": BAUD}))


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
    cmd = commands.add_parser("info", help="what the device holds: flash, clock, update state, games",
                              description="Show the device, its flash and clock, its update state (a new "
                                          "version on trial or probation, the versions it rolled back) and "
                                          "the games it stores.")
    port_options(cmd)
    cmd.set_defaults(run=run_info)

    cmd = commands.add_parser(
        "export", help="take the device's games home as JSON or CSV",
        description="Export games over the serial link. Without --since every game is exported; --since "
                    "alone exports what changed since this laptop's last export of the device (and "
                    "resumes an export that was cut short). Games exported are marked on the device.")
    port_options(cmd)
    cmd.add_argument("-o", "--output", metavar="FILE", help="output file, '-' for standard output "
                     "(default: tafel-DEVICE-TIME.json or .csv)")
    cmd.add_argument("--format", choices=("json", "csv"), help="default: from the file name, else json")
    which = cmd.add_mutually_exclusive_group()
    which.add_argument("--all", action="store_true", help="every game (the default)")
    which.add_argument("--since", nargs="?", const=LAST, type=_cursor, metavar="CURSOR",
                       help="only games new or changed since this laptop's last export, or since CURSOR "
                            "(G:S/N@E, as an export printed it; G:S alone brings every game)")
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
        say("%s on %s" % (err, args.port or "the port"))
        return getattr(err, "exit_code", Exit.FAILED)  # 4: the app stopped at the prompt meanwhile
    finally:
        link.close()


def _when(epoch):
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(epoch)) if epoch else "date unknown"


# ---- info --------------------------------------------------------------------------

def run_info(args):
    return session(args, _info)


def _info(link):
    if link.hello.get("mode") == wire.RECOVERY:  # its flash does not show its games: no store to ask
        from ..rescue.link import print_recovery_info

        return print_recovery_info(link)
    h, info = link.hello, link.info()
    games = link.games()
    state = DeviceState(h["id"])
    print("device   %s (firmware %s, link protocol %d, window %d, chunk %d)"
          % (h["id"], h["fw"], h["proto"], h["window"], h["chunk"]))
    print("flash    %d KB free of %d KB (%s)" % (info["free_kb"], info["total_kb"], info["flash"]))
    running = ", game %d running" % info["running"] if info["running"] else ""
    print("games    %d stored%s; the next gets id %d" % (info["games"], running, info["next_id"]))
    if info["clock_set"]:
        print("clock    %s UTC (%+d s from this laptop)"
              % (export.iso(info["clock"])[:19].replace("T", " "), info["clock"] - int(time.time())))
    else:
        print("clock    not set since power-up: games begun now carry no date (set it: tafel clock)")
    print("update   %s" % update_state(info))
    for rec in info["rollbacks"]:
        print("rollback %s given up %s: %s" % (rec["version"], rollback_when(rec["at"]), rollback_why(rec)))
    for note in info["storage_report"]:
        print("flash check: %s" % storage_notes.say(note))
    cursor, spool = state.cursor(), state.spooled()
    print("exported %s" % ("last cursor " + cursor if cursor else "never from this laptop"))
    if spool:
        print("         an export was cut short with %d games kept: tafel export --since continues it" % len(spool[0]))
    if games:
        print("%5s  %-16s  %-9s %6s %6s  %-28s %s" % ("id", "created", "variant", "target", "rounds", "players", "state"))
    for g in games:
        state_text = ("won by " + " & ".join(shown(w) for w in g["winners"])) if g["winners"] else (
            "finished" if g["finished"] else "being played" if g["live"] else "open")
        flags = [w for w, on in (("exported", g["exported"]), ("damaged", g["damaged"])) if on]
        print("%5d  %-16s  %-9s %6d %6d  %-28s %s" % (
            g["id"], _when(g["created"]), g["variant"], g["target"], g["rounds"],
            ", ".join(shown(p) for p in g["players"])[:28], ", ".join([state_text] + flags)))
    return Exit.OK


# INFO's update state (docs/protocol.md): 0 confirmed, 1 on trial, 2 on probation
CONFIRMED, ON_TRIAL, PROBATION = 0, 1, 2


def update_state(info):
    """The running version's update state in words: on trial (which boot, how long still to run), ..."""
    fw = info["firmware"]
    if info["state"] == ON_TRIAL:
        return "%s on trial: boot %d of %d, confirms after %d s more of running" % (
            fw, info["tries"], info["tries_max"], -(-info["confirm_left_ms"] // 1000))
    if info["state"] == PROBATION:
        return "%s on probation: confirmed, but a crash in its first minutes still rolls it back" % fw
    return "%s confirmed%s" % (fw, ", bundle %s" % info["bundle_id"] if info["bundle_id"] else " (bundle id unknown)")


def rollback_when(at):
    """'on 2026-12-02 10:31 UTC' of a rollback record's epoch seconds; 'at an unknown time' for 0."""
    return "on %s UTC" % time.strftime("%Y-%m-%d %H:%M", time.gmtime(at)) if at else "at an unknown time"


def rollback_why(rec, who="it"):
    """Why the device gave a version up, from its rollback record (who: the version's name or 'it')."""
    count = rec["count"]
    if rec["why"] == "boots":
        return "%s never confirmed itself in %d boot%s" % (who, count, "" if count == 1 else "s")
    if rec["why"] == "crashes":
        return "%s crashed %d time%s soon after the update" % (who, count, "" if count == 1 else "s")
    if rec["why"] == "key":
        return "the recovery key was held at power-on"
    return "the device's reason: %s" % (rec["why"] or "none given")


# ---- export ------------------------------------------------------------------------

def run_export(args):
    fmt = args.format or ("csv" if (args.output or "").lower().endswith(".csv") else "json")
    problem = export.output_problem(args.output)
    if problem:
        say(problem + "; nothing was asked of the device")
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
            say("continuing the export that was cut short (%d games kept)" % len(games))
            if marks:
                link.mark(sorted(marks.items()))  # what SINCE relies on: those are home
        else:
            cursor = state.cursor()
            if cursor is None:
                say("no earlier export of %s on this laptop: exporting every game" % device)
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
        gone = "interrupted" if isinstance(err, KeyboardInterrupt) else str(err)
        one = len(games) == 1
        say("%s. The %d game%s that came whole %s kept on this laptop; run `tafel export --since` "
             "to continue." % (gone, len(games), "" if one else "s", "is" if one else "are"))
        return Exit.FAILED if not isinstance(err, KeyboardInterrupt) else Exit.INTERRUPTED
    finally:
        bar.stop()
    for text in salvage.tell(games, result.unplaced, result.unreadable):
        say(text)
    for text in storage_notes.losses(report):  # what the device's boot check could not bring back
        say("the device's flash check: " + text)
    doc = export.document(device, link.hello["fw"], list(games.values()), cursor=result.cursor,
                          storage_report=report, unreadable=result.unplaced)
    count = "%d game%s" % (len(games), "" if len(games) == 1 else "s")
    try:
        out = write_output(doc, fmt, args.output, device)
    except OSError as err:  # checked before the transfer; a disk that filled up since: the spool keeps them
        state.end(False)
        say("cannot write %s (%s). The %s are kept on this laptop: free some space and run "
             "`tafel export --since` to write them." % (args.output or "the export", err.strerror or err, count))
        return Exit.FAILED
    try:
        if marks:
            link.mark(sorted(marks.items()))
    except (LinkError, KeyboardInterrupt) as err:  # the file is whole; the spool stays, the next --since marks them
        state.end(False)
        why = "interrupted" if isinstance(err, KeyboardInterrupt) else str(err)
        say("%s is written with %s, but marking them exported on the device failed (%s). Nothing is lost: "
             "the file is whole; `tafel export --since` marks them and may bring them again."
             % (out, count, why))
        return Exit.FAILED if not isinstance(err, KeyboardInterrupt) else Exit.INTERRUPTED
    state.save_cursor(result.cursor)
    state.end(True)
    rate = result.wire_in / result.seconds if result.seconds else 0
    print("%s: %d game%s (%d rounds) from %s, %d journal bytes in %.1f s (%.0f bytes/s on the wire); "
          "cursor %s" % (out, len(games), "" if len(games) == 1 else "s",
                         sum(len(g["rounds"]) for g in games.values()), device, result.received,
                         result.seconds, rate, result.cursor),
          file=sys.stderr if out == "-" else sys.stdout)
    return Exit.OK


def write_output(doc, fmt, output, device):
    text = export.render(doc, fmt)
    if output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return "-"
    if not output:
        output = "tafel-%s-%s.%s" % (device, time.strftime("%Y%m%d-%H%M%S"), fmt)
    path = Path(output)
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(text, encoding="utf-8", newline="")
    os.replace(tmp, path)
    return str(path)
