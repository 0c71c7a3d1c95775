# tafel roster (pull, push, clear) and tafel clock: the device's player names and its clock, over the link.
import sys
import time
from pathlib import Path

from tafel import wire
from tafel.names import MAX_NAME, bad_char, folded, name_problem, shown, undrawable

from ..exits import Exit
from ..lang import say as text
from . import export
from .cli import port_options, say, session

ROSTER_MAX = 64  # names the device's roster holds (firmware/store/keyval.py MAX_ROSTER, docs/protocol.md)


def add_parsers(commands):
    cmd = commands.add_parser("roster", help=text("hp_roster"), description=text("hp_roster_d"))
    port_options(cmd)
    sub = cmd.add_subparsers(dest="action", required=True, metavar=text("m_action"))
    pull = sub.add_parser("pull", help=text("hp_roster_pull"))
    pull.set_defaults(run=run_roster_pull)
    push = sub.add_parser("push", help=text("hp_roster_push", ROSTER_MAX, MAX_NAME))
    push.add_argument("names", nargs="*", metavar=text("m_name"))
    push.add_argument("--file", metavar=text("m_file"), help=text("hp_roster_file"))
    push.set_defaults(run=run_roster_push)
    clear = sub.add_parser("clear", help=text("hp_roster_clear"))
    clear.set_defaults(run=run_roster_clear)
    for sp in (pull, push, clear):
        port_options(sp, top=False)

    cmd = commands.add_parser("clock", help=text("hp_clock"), description=text("hp_clock_d"))
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
            return text("roster_blank", i)
        problem = name_problem(name)
        if problem:
            return text("roster_name", i, _name_problem(problem[0], name.strip()))
    distinct = {folded(name.strip()).lower() for name in names}
    if len(distinct) > ROSTER_MAX:
        return text("roster_too_many", len(distinct), ROSTER_MAX, ROSTER_MAX)
    return None


def _name_problem(code, name):
    # tafel.names.name_problem's refusal in the laptop's language (its message is English)
    if code == "name_long":
        return text("name_long", shown(name), MAX_NAME)
    at = bad_char(name)
    if at >= 0:
        return text("name_bad", shown(name), shown(name[at]), at + 1)
    at = undrawable(name)
    return text("name_undrawable", name, name[at], at + 1)


def run_roster_push(args):
    names = list(args.names)
    if args.file:
        try:
            content = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            say(text("cannot_read", args.file, export.why_unreadable(err)))
            return Exit.USAGE
        names += [line.strip() for line in content.splitlines() if line.strip()]
    if not names:
        say(text("roster_no_names"))
        return Exit.USAGE
    problem = roster_problem(names)
    if problem:
        say(text("roster_unsent", problem))
        return Exit.USAGE
    sent = [folded(name.strip()) for name in names]
    for name, form in zip(names, sent):
        if form != name.strip():  # the same table the device draws by (tafel.fold.FOLD_FROM)
            say(text("roster_folded", name.strip(), form))

    def push(link):
        stored = link.roster_push(sent)
        print(text("roster_stored", stored, link.hello["id"]))
        return Exit.OK

    return session(args, push)


def run_roster_clear(args):
    def clear(link):
        link.roster_push([])
        print(text("roster_emptied", link.hello["id"]))
        return Exit.OK

    return session(args, clear)


def run_clock(args):
    now = int(time.time())
    if not 1 <= now <= wire.CLOCK_MAX:
        say(text("clock_range", now, _utc(now), wire.CLOCK_MAX, _utc(wire.CLOCK_MAX)))
        return Exit.USAGE

    def clock(link):
        before = link.set_clock(now)
        at = export.iso(now)[:19].replace("T", " ")
        if not before:
            print(text("clock_set_unset", link.hello["id"], at))
        else:
            print(text("clock_set", link.hello["id"], at, export.iso(before)[:19].replace("T", " "), before - now))
        return Exit.OK

    return session(args, clock)


def _utc(epoch):
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(epoch))
    except (OverflowError, OSError, ValueError):
        return text("time_out_of_range")
