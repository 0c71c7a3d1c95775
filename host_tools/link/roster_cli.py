# tafel roster (pull, push, clear) and tafel clock: the device's player names and its clock, over the link.
import sys
import time
from pathlib import Path

from tafel import wire
from tafel.names import MAX_NAME, folded, name_problem, shown

from ..exits import Exit
from . import export
from .cli import port_options, say, session

ROSTER_MAX = 64  # names the device's roster holds (firmware/store/keyval.py MAX_ROSTER, docs/protocol.md)


def add_parsers(commands):
    cmd = commands.add_parser("roster", help="the player names the device offers",
                              description="Pull the device's roster of player names, or push a new one.")
    port_options(cmd)
    sub = cmd.add_subparsers(dest="action", required=True, metavar="ACTION")
    pull = sub.add_parser("pull", help="print the roster, one name a line")
    pull.set_defaults(run=run_roster_pull)
    push = sub.add_parser("push", help="replace the roster with these names (at most %d, of at most %d "
                                       "Latin letters, digits or punctuation; a letter the device has "
                                       "no glyph for is sent in its plain form: Zoë as Zoe)"
                                  % (ROSTER_MAX, MAX_NAME))
    push.add_argument("names", nargs="*", metavar="NAME")
    push.add_argument("--file", metavar="FILE", help="names one a line ('-' for standard input)")
    push.set_defaults(run=run_roster_push)
    clear = sub.add_parser("clear", help="empty the roster")
    clear.set_defaults(run=run_roster_clear)
    for sp in (pull, push, clear):
        port_options(sp, top=False)

    cmd = commands.add_parser("clock", help="set the device clock from this laptop's",
                              description="Set the device clock (it has no battery: games created before "
                                          "the first sync after power-up carry no date).")
    port_options(cmd)
    cmd.set_defaults(run=run_clock)


def run_roster_pull(args):
    def pull(link):
        for name in link.roster_pull():
            print(shown(name))  # a control character from older data printed escaped, never raw
        return Exit.OK

    return session(args, pull)


def roster_problem(names):
    """Why the device would refuse these names (the text to print), or None: a blank, a
    control character or a character the device cannot show (its position), a name over
    MAX_NAME, more than ROSTER_MAX names."""
    for i, name in enumerate(names, 1):
        if not name.strip():
            return ("name %d is blank: give names, or empty the roster with `tafel roster clear`" % i)
        problem = name_problem(name)
        if problem:
            return "name %d: %s" % (i, problem[1])
    distinct = {folded(name.strip()).lower() for name in names}
    if len(distinct) > ROSTER_MAX:
        return ("%d names: the device's roster holds at most %d; push %d or fewer"
                % (len(distinct), ROSTER_MAX, ROSTER_MAX))
    return None


def run_roster_push(args):
    names = list(args.names)
    if args.file:
        try:
            text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            say("cannot read %s: %s" % (args.file, err))
            return Exit.USAGE
        names += [line.strip() for line in text.splitlines() if line.strip()]
    if not names:
        say("no names to push: give them as arguments or with --file (to empty the roster: tafel roster clear)")
        return Exit.USAGE
    problem = roster_problem(names)
    if problem:
        say("%s. Nothing was sent; the roster stays as it is." % problem)
        return Exit.USAGE
    sent = [folded(name.strip()) for name in names]
    for name, form in zip(names, sent):
        if form != name.strip():  # the same table the device draws by (tafel.names.FOLD_FROM)
            say("'%s' is sent as '%s': the device shows these letters without their marks" % (name.strip(), form))

    def push(link):
        stored = link.roster_push(sent)
        print("roster: %d names stored on %s" % (stored, link.hello["id"]))
        return Exit.OK

    return session(args, push)


def run_roster_clear(args):
    def clear(link):
        link.roster_push([])
        print("roster of %s emptied" % link.hello["id"])
        return Exit.OK

    return session(args, clear)


def run_clock(args):
    now = int(time.time())
    if not 1 <= now <= wire.CLOCK_MAX:
        say("this laptop's clock says %d s since 1970 (%s); the device takes 1 to %d (up to %s). "
             "Set this laptop's clock right, then run tafel clock again." % (
                 now, _utc(now), wire.CLOCK_MAX, _utc(wire.CLOCK_MAX)))
        return Exit.USAGE

    def clock(link):
        before = link.set_clock(now)
        was = "was not set" if not before else "was %s UTC (%+d s)" % (
            export.iso(before)[:19].replace("T", " "), before - now)
        print("clock of %s set to %s UTC; it %s" % (link.hello["id"], export.iso(now)[:19].replace("T", " "), was))
        return Exit.OK

    return session(args, clock)


def _utc(epoch):
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(epoch))
    except (OverflowError, OSError, ValueError):
        return "a time out of range"
