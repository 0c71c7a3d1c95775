# `tafel club`: the club evening's commands. `serve` runs the hub, `round` draws a tournament round on it
# (round_cli.py); `pair` and `unpair` (the table's side, over USB) join the group beside them.
#
#   tafel club serve                              # the broker built in, on 0.0.0.0:1883
#   tafel club serve --broker mqtt://pi.local     # a broker of the club's own (Mosquitto)
# --db PATH the history database (default: the one `tafel history` reads); --club NAME the club
# (default: the one club the paired devices belong to). Exit codes: 0 stopped with Ctrl-C, 1 the
# broker built in cannot listen, 2 bad arguments or database.
import asyncio
import logging
import os
import sys
from urllib.parse import urlparse

from tafel import club

from ..exits import Exit
from ..history.database import HistoryError
from ..lang import say
from . import leaderboard, round_cli
from .registry import Registry

DEFAULT_LISTEN = "0.0.0.0:1883"
DEFAULT_HTTP = "0.0.0.0:8080"
PASSWORD_ENV = round_cli.PASSWORD_ENV


def add_parsers(commands):
    cmd = commands.add_parser("club", help=say("hp_club"), description=say("hp_club_desc"))
    actions = cmd.add_subparsers(dest="club_action", metavar=say("m_action"), required=True)
    add_serve(actions)
    round_cli.add_parser(actions)  # tafel club pair / unpair: their parsers are added to `actions` too
    return actions


def add_serve(actions):
    cmd = actions.add_parser("serve", help=say("hp_club_serve"), description=say("hp_club_serve_desc"))
    cmd.add_argument("--broker", metavar="URL", help=say("hp_club_broker"))
    cmd.add_argument("--listen", metavar="HOST:PORT", default=DEFAULT_LISTEN, help=say("hp_club_listen"))
    cmd.add_argument("--club", metavar=say("m_name"), help=say("hp_club_club"))
    cmd.add_argument("--db", metavar=say("m_path"), help=say("hp_club_db"))
    cmd.add_argument("--http", metavar="HOST:PORT", default=DEFAULT_HTTP, help=say("hp_club_http"))
    cmd.add_argument("--password", metavar="TEXT", help=say("hp_club_password", PASSWORD_ENV))
    cmd.add_argument("--stale", metavar="MIN", type=int, default=15, help=say("hp_club_stale"))
    cmd.add_argument("--rank", metavar="ORDER", default=",".join(leaderboard.DEFAULT), help=say("hp_club_rank"))
    cmd.add_argument("-v", "--verbose", action="store_true", help=say("hp_club_verbose"))
    cmd.set_defaults(run=run_serve)


def _fail(message, code=Exit.USAGE):
    print("tafel: %s" % message, file=sys.stderr)
    return code


def parse_listen(text, any_port=False):
    """(host, port) of HOST:PORT (with `any_port`, port 0: one the system picks); ValueError if it is none."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not (0 if any_port else 1) <= int(port) < 65536:
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
    http = None
    if args.http != "off":
        try:
            http = parse_listen(args.http, any_port=True)
        except ValueError:
            return _fail(say("club_bad_listen", args.http))
    try:
        order = leaderboard.parse_order(args.rank)
    except ValueError:
        return _fail(say("club_bad_rank", args.rank, ", ".join(leaderboard.ORDERS)))
    if args.stale < 1:
        return _fail(say("club_bad_stale", args.stale))
    web = {"http": http, "password": args.password or os.environ.get(PASSWORD_ENV) or None,
           "stale_min": args.stale, "order": order}
    logging.basicConfig(level=logging.INFO if args.verbose else logging.ERROR, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        with Registry(args.db) as registry:
            try:
                club_name = which_club(registry, args.club)
            except ValueError as err:
                return _fail(err)
            try:
                ok = asyncio.run(serve.serve(registry, club_name, args.broker, listen, _line, web=web))
            except KeyboardInterrupt:  # where the loop cannot take SIGINT itself (Windows): stopped all the same
                ok = True
    except HistoryError as err:
        return _fail(err)
    return Exit.OK if ok else Exit.FAILED


def _line(text):
    print(text, flush=True)
