# `tafel club pair` and `tafel club unpair`: a table joins a club's hub, or leaves it (over USB).
#
#   tafel club pair --port P --hub HOST[:PORT] [--table NAME] [--club NAME] [--db PATH]
#   tafel club unpair --port P [--db PATH]
# pair makes a new 32-byte secret (secrets.token_bytes), puts it with the table and the club in
# the hub's registry (host_tools/club/registry.py, in the history database the hub serves from)
# and then on the device with the hub's address (CLUB_PAIR, docs/protocol.md); the device then
# reports every saved record to the hub over MQTT while a Wi-Fi network is set on it
# (firmware/club/). The registry comes first: a name it refuses changes nothing on the device,
# and a device that did not take the secret is told by the command (pair again). unpair takes
# the pairing off the device and the secret out of the registry, if the database is there.
# --table defaults to the device's id, --club to "club", the port to MQTT's 1883.
# Exit codes: 0 done, 1 the device or the link failed, 2 bad arguments or database, 3 no device,
# 4 the device is at the MicroPython prompt.
# Both join `tafel club` beside serve: club/cli.py makes the group, add_parsers() adds them.
import os
import secrets
import sys

from tafel import club, wire

from ..exits import Exit
from ..history.database import HistoryError, default_path
from ..lang import say as text
from ..link.cli import port_options, session
from ..link.errors import DeviceError

DEFAULT_CLUB = "club"
_WHY = {"bad host": "pair_bad_host", "bad port": "pair_bad_hub", "bad club name": "pair_bad_club",
        "bad table name": "pair_bad_table"}


def add_parsers(actions):
    """pair and unpair into `tafel club`'s actions (club/cli.py makes the group)."""
    cmd = actions.add_parser("pair", help=text("hp_club_pair"), description=text("hp_club_pair_desc"))
    port_options(cmd)
    cmd.add_argument("--hub", required=True, metavar="HOST[:PORT]", help=text("hp_club_pair_hub"))
    cmd.add_argument("--table", metavar=text("m_name"), help=text("hp_club_pair_table"))
    cmd.add_argument("--club", default=DEFAULT_CLUB, metavar=text("m_name"),
                     help=text("hp_club_pair_club", DEFAULT_CLUB))
    cmd.add_argument("--db", metavar=text("m_path"), help=text("hp_club_pair_db"))
    cmd.set_defaults(run=run_pair)
    cmd = actions.add_parser("unpair", help=text("hp_club_unpair"), description=text("hp_club_unpair_desc"))
    port_options(cmd)
    cmd.add_argument("--db", metavar=text("m_path"), help=text("hp_club_pair_db"))
    cmd.set_defaults(run=run_unpair)


def say(message):
    print("tafel: %s" % message, file=sys.stderr)


def parse_hub(value):
    """(host, port) of HOST or HOST:PORT; ValueError if it is neither."""
    host, sep, port = value.rpartition(":")
    if not sep:
        host, port = value, str(club.DEFAULT_PORT)
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(value)
    return host, int(port)


def _problem(host, port, club_name, table, args):
    # The refusal in the laptop's language of what the device would refuse, or None.
    why = club.pairing_problem(host, port, club_name, table, bytes(club.SECRET_SIZE))
    if why is None:
        return None
    key = _WHY.get(why, "pair_bad_hub")
    if key == "pair_bad_table":
        return text(key, table, club.MAX_TABLE)
    return text(key, args.club if key == "pair_bad_club" else args.hub)


def run_pair(args):
    try:
        host, port = parse_hub(args.hub)
    except ValueError:
        say(text("pair_bad_hub", args.hub))
        return Exit.USAGE
    problem = _problem(host, port, args.club, "table" if args.table is None else args.table, args)
    if problem:
        say(problem)
        return Exit.USAGE
    secret = secrets.token_bytes(club.SECRET_SIZE)

    def pair(link):
        device = link.hello["id"]
        if not club.valid_name(device):
            say(text("pair_bad_device", device))
            return Exit.FAILED
        table = (args.table if args.table is not None else device).strip()
        problem = _problem(host, port, args.club, table, args)
        if problem:
            say(problem)
            return Exit.USAGE
        from .registry import Registry

        try:
            with Registry(args.db) as registry:
                registry.pair(device, table, secret, args.club)
        except HistoryError as err:
            say(text("pair_registry", args.db or default_path(), err))
            return Exit.USAGE
        try:
            send_pairing(link, host, port, args.club, table, secret)
        except DeviceError as err:
            if err.code in ("unknown", "unsupported"):
                say(text("pair_old_firmware", link.hello.get("fw", "?")))
            else:
                say(err)
            say(text("pair_half"))
            return Exit.FAILED
        print(text("paired", device, table, args.club, host, port))
        print(text("paired_wifi"))
        return Exit.OK

    return session(args, pair)


def send_pairing(link, host, port, club_name, table, secret):
    """CLUB_PAIR in as few requests as the fields fit (docs/protocol.md)."""
    parts, part = [], bytearray()
    for tag, value in club.pair_fields(host, port, club_name, table, secret):
        one = bytearray()
        club.put_field(one, tag, value)
        if part and 1 + len(part) + len(one) > wire.MAX_REQUEST:
            parts.append(part)
            part = bytearray()
        part.extend(one)
    parts.append(part)
    for i, part in enumerate(parts):
        flags = (wire.FIRST if i == 0 else 0) | (wire.LAST if i == len(parts) - 1 else 0)
        link.request(club.PAIR, bytes((flags,)) + bytes(part))


def run_unpair(args):
    def unpair(link):
        device = link.hello["id"]
        try:
            was = link.request(club.UNPAIR) == b"\x01"
        except DeviceError as err:
            if err.code in ("unknown", "unsupported"):
                say(text("pair_old_firmware", link.hello.get("fw", "?")))
                return Exit.FAILED
            raise
        print(text("unpaired" if was else "unpaired_not", device))
        return _forget(device, args.db)

    return session(args, unpair)


def _forget(device, db):
    # The secret out of the hub's database, when there is one on this laptop (none is made for it).
    path = db or default_path()
    try:
        if not os.path.exists(path):
            return Exit.OK
        from .registry import Registry

        with Registry(path) as registry:
            if registry.unpair(device):
                print(text("unpaired_registry", registry.path))
    except HistoryError as err:
        say(text("pair_registry", path, err))
        return Exit.USAGE
    return Exit.OK
