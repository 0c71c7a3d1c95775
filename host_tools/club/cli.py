# `tafel club`: the club evening's commands. `serve` runs the hub; `pair` and `unpair` (the table's
# side, over USB) join the group beside it.
#
#   tafel club serve                              # the broker built in, on 0.0.0.0:1883
#   tafel club serve --broker mqtt://pi.local     # a broker of the club's own (Mosquitto)
# --db PATH the history database (default: the one `tafel history` reads); --club NAME the club
# (default: the one club the paired devices belong to). Exit codes: 0 stopped with Ctrl-C, 1 the
# broker built in cannot listen, 2 bad arguments or database.
import asyncio
import logging
import sys
from urllib.parse import urlparse

from tafel import club

from ..exits import Exit
from ..history.database import HistoryError
from ..lang import say
from .registry import Registry

DEFAULT_LISTEN = "0.0.0.0:1883"


def add_parsers(commands):
    cmd = commands.add_parser(
        "club", help="club evenings: the hub every table reports its games to (MQTT)",
        description="A club evening: each table's Tafel sends every saved record over MQTT to one hub, "
                    "which stores the games in the history (docs/club.md).")
    actions = cmd.add_subparsers(dest="club_action", metavar="ACTION", required=True)
    add_serve(actions)  # tafel club pair / unpair: their parsers are added to `actions` here too
    return actions


def add_serve(actions):
    cmd = actions.add_parser(
        "serve", help="run the hub: take the tables' records into the history until Ctrl-C",
        description="Run the club's hub: subscribe to the tables' records, state and status, store every "
                    "signed record that fits its game in the history database and acknowledge it. Without "
                    "--broker an MQTT broker is built in, listening on --listen.")
    cmd.add_argument("--broker", metavar="URL", help="the club's MQTT broker, mqtt://HOST[:PORT] (default: the "
                                                     "broker built in)")
    cmd.add_argument("--listen", metavar="HOST:PORT", default=DEFAULT_LISTEN,
                     help="where the broker built in listens (default: %s)" % DEFAULT_LISTEN)
    cmd.add_argument("--club", metavar="NAME", help="the club (default: the club of the paired devices)")
    cmd.add_argument("--db", metavar="PATH", help="history database (default: history.sqlite3 in the user's "
                                                  "data directory)")
    cmd.add_argument("-v", "--verbose", action="store_true", help="log every message and the broker's doings")
    cmd.set_defaults(run=run_serve)


def _fail(message, code=Exit.USAGE):
    print("tafel: %s" % message, file=sys.stderr)
    return code


def parse_listen(text):
    """(host, port) of HOST:PORT; ValueError if it is none."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(text)
    return host.strip("[]"), int(port)


def check_broker(url):
    """The URL if it names an MQTT broker (mqtt:// or mqtts://, a host); ValueError if not."""
    parts = urlparse(url)
    try:
        parts.port  # noqa: B018 (a bad port raises here)
    except ValueError:
        raise ValueError(url) from None
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise ValueError(url)
    return url


def which_club(registry, named):
    """The club to serve: as named, else the one club the paired devices belong to; ValueError saying why not."""
    if named is not None:
        if not club.valid_name(named):
            raise ValueError(say("club_bad_name", named))
        return named
    clubs = registry.clubs()
    if len(clubs) == 1:
        return clubs[0]
    raise ValueError(say("club_several_clubs", ", ".join(clubs)) if clubs else say("club_no_club"))


def run_serve(args):
    try:
        from . import serve
    except ImportError:
        return _fail(say("club_needs_amqtt"), Exit.FAILED)
    try:
        listen = parse_listen(args.listen)
    except ValueError:
        return _fail(say("club_bad_listen", args.listen))
    if args.broker is not None:
        try:
            check_broker(args.broker)
        except ValueError:
            return _fail(say("club_bad_broker", args.broker))
    logging.basicConfig(level=logging.INFO if args.verbose else logging.ERROR, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        with Registry(args.db) as registry:
            try:
                club_name = which_club(registry, args.club)
            except ValueError as err:
                return _fail(err)
            try:
                ok = asyncio.run(serve.serve(registry, club_name, args.broker, listen, _line))
            except KeyboardInterrupt:  # where the loop cannot take SIGINT itself (Windows): stopped all the same
                ok = True
    except HistoryError as err:
        return _fail(err)
    return Exit.OK if ok else Exit.FAILED


def _line(text):
    print(text, flush=True)
