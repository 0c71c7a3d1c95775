# `tafel club round`: the organiser draws the next tournament round from the command line, through the running hub.
#
#   tafel club round --players Anna,Ben,Cleo,Dora,Emil,Fritz --tables 2 [--variant penalty] [--target 300]
#                    [--hub http://LAPTOP:8080] [--password TEXT]
# A client of the live board's POST /round (club/web.py): the hub draws the round (tournament.py),
# sends each table its players and keeps it; this prints it, a line per table. The password is the
# one `tafel club serve` was given (--password, else $TAFEL_CLUB_PASSWORD); the hub's address its
# --http (default: this laptop's port 8080). What can be checked here (the variant, the target, the
# players fitting the tables) is, before the hub is asked; what only the hub knows (how many tables
# are paired) it answers with a key of texts_*_club.py, said here in this laptop's language.
# Exit codes: 0 drawn, 1 the hub cannot be reached or cannot send the round just now (no broker),
# 2 bad arguments: a variant, target or player list that does not fit, too few tables paired, no
# password or the wrong one.
import json
import os
import sys
import urllib.error
import urllib.request

from tafel.names import shown
from tafel.variants import NAMES

from ..exits import Exit
from ..lang import say
from . import draw

DEFAULT_HUB = "http://127.0.0.1:8080"
PASSWORD_ENV = "TAFEL_CLUB_PASSWORD"
WAIT_S = 30.0  # the hub answers once every table's message is with the broker: a moment
MAX_TARGET = 100000  # as tournament.py checks it
_FAILED = {"club_not_connected"}  # the hub's reasons that are no fault of the command line


def add_parser(actions):
    cmd = actions.add_parser("round", help=say("hp_club_round"), description=say("hp_club_round_desc"))
    cmd.add_argument("--players", required=True, metavar=say("m_names"), help=say("hp_club_round_players"))
    cmd.add_argument("--tables", required=True, type=int, metavar="N", help=say("hp_club_round_tables"))
    cmd.add_argument("--variant", default="standard", metavar=say("m_variant"),
                     help=say("hp_club_round_variant", ", ".join(NAMES)))
    cmd.add_argument("--target", type=int, default=500, metavar=say("m_points"), help=say("hp_club_round_target"))
    cmd.add_argument("--hub", default=DEFAULT_HUB, metavar="URL", help=say("hp_club_round_hub"))
    cmd.add_argument("--password", metavar="TEXT", help=say("hp_club_round_password", PASSWORD_ENV))
    cmd.set_defaults(run=run_round)


def _fail(message, code=Exit.USAGE):
    print("tafel: %s" % message, file=sys.stderr)
    return code


def players_of(text):
    """The names of "Anna, Ben,Cleo": split at commas, trimmed, empty ones left out."""
    return [name.strip() for name in text.split(",") if name.strip()]


def hub_url(text):
    """The hub's base URL: http:// is added to a bare HOST[:PORT]."""
    return (text if "://" in text else "http://" + text).rstrip("/")


def post_round(url, doc, timeout=WAIT_S):
    """(status, answer) of POST URL/round with `doc`; OSError when the hub cannot be reached, ValueError
    when what answers is no hub."""
    request = urllib.request.Request(url + "/round", data=json.dumps(doc).encode("utf-8"), method="POST",
                                     headers={"Content-Type": "application/json"})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # the club's own network: no proxy
    try:
        with opener.open(request, timeout=timeout) as answer:
            status, body = answer.status, answer.read()
    except urllib.error.HTTPError as err:
        status, body = err.code, err.read()
    answer = json.loads(body.decode("utf-8"))  # ValueError (UnicodeDecodeError too) if it is no JSON
    if not isinstance(answer, dict):
        raise ValueError(body[:80])
    return status, answer


def run_round(args):
    players = players_of(args.players)
    if args.variant not in NAMES:
        return _fail(say("club_bad_variant", args.variant))
    if not 0 < args.target <= MAX_TARGET:
        return _fail(say("club_bad_target", args.target))
    if len(set(players)) != len(players):
        return _fail(say("club_named_twice"))
    try:
        draw.sizes(len(players), args.tables)
    except ValueError:
        return _fail(say("club_do_not_fit", len(players), args.tables, draw.MIN_SEATS, draw.MAX_SEATS))
    password = args.password or os.environ.get(PASSWORD_ENV)
    if not password:
        return _fail(say("club_round_no_password", PASSWORD_ENV))
    url = hub_url(args.hub)
    doc = {"password": password, "players": players, "tables": args.tables, "variant": args.variant,
           "target": args.target}
    try:
        status, answer = post_round(url, doc)
    except OSError as err:
        return _fail(say("club_round_unreachable", url, getattr(err, "reason", None) or err), Exit.FAILED)
    except ValueError:
        return _fail(say("club_round_not_hub", url), Exit.FAILED)
    if status == 200 and isinstance(answer.get("tables"), list):
        print_round(answer)
        return Exit.OK
    if status == 403:
        return _fail(say("club_round_password", PASSWORD_ENV))
    why = answer.get("why")
    if status == 400 and isinstance(why, str) and why.startswith("club_"):
        try:
            text = say(why, *answer.get("values", ()))
        except (KeyError, TypeError):  # a hub newer than this tafel: its own words, then
            text = answer.get("error")
        return _fail(text, Exit.FAILED if why in _FAILED else Exit.USAGE)
    if status == 400:
        return _fail(say("club_round_refused", answer.get("error")))
    return _fail(say("club_round_not_hub", url), Exit.FAILED)


def print_round(answer):
    """The drawn round as a table: round, table's name, its players in seat order."""
    names = answer.get("devices") or []
    rows = [(say("col_round"), say("col_table"), say("col_players"))]
    for i, seats in enumerate(answer["tables"]):
        rows.append((str(answer["round"]), shown(names[i]) if i < len(names) else str(i + 1),
                     ", ".join(shown(name) for name in seats)))
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    for row in rows:
        print("%s  %s  %s" % (row[0].rjust(widths[0]), row[1].ljust(widths[1]), row[2]))
