# A club evening for the hub's tests: a table's game made with the core (create, rounds, an edit, an
# undo, the end), its records signed as a table sends them, and what `tafel history import` makes of them.
import json
import sqlite3

from export_fixtures import EVENING
from tafel import club, journal
from tafel.game import Game
from tafel_host.history.database import History
from tafel_host.link import export

CLUB = "kartenclub"
DEVICE = "esp32-a1b2c3d4e5f6"
OTHER = "esp32-0badc0ffee00"
SECRET = bytes(range(32))
OTHER_SECRET = bytes(range(100, 132))
TABLE = "Tisch 3"


def evening_game(game_id=7, created=EVENING, players=("Anna", "Ben", "Cleo")):
    """The payloads of a whole game, each kind of record in it: create, three rounds, an edit of the
    first, an undo of the third, one more round, and the table ending it early."""
    game = Game(players, "standard", 500, None, created, game_id)
    payloads = [game.create_record()]

    def step(payload):
        game.apply(payload)
        payloads.append(payload)

    a, b, c = players[:3]
    rest = {name: 0 for name in players[3:]}  # more seats: they hold nothing each round

    def hands(given):
        return dict(given, **rest)

    step(game.round_record(hands({b: [7, 9, 20], c: [50, 3]}), a))  # the worked example: 89
    step(game.round_record(hands({a: 40, c: 60}), b))
    step(game.round_record(hands({a: 12, b: 30}), c))
    step(game.edit_record(0, hands({b: 36, c: 60}), a))
    step(game.undo_record())
    step(game.round_record(hands({a: 10, b: 5}), c))
    step(game.finish_record(created + 3600 if created else 0))
    return payloads


def frames(payloads):
    return [journal.frame(seq, payload) for seq, payload in enumerate(payloads)]


def record_message(payloads, seq, game_id=7, secret=SECRET, device=DEVICE, club_name=CLUB):
    """(topic, message) of record `seq` as the table sends it."""
    name = club.topic(club_name, device, "records")
    return name.decode(), club.sign(secret, name, club.encode_record(game_id, journal.frame(seq, payloads[seq])))


def signed(what, body, secret=SECRET, device=DEVICE, club_name=CLUB):
    name = club.topic(club_name, device, what)
    return name.decode(), club.sign(secret, name, body)


def opened_ack(ack, secret=SECRET):
    """(game id, next sequence) of an ACK (topic, message) the hub gave, its signature checked."""
    body = club.open_signed(secret, ack[0].encode(), ack[1])
    assert body is not None, "an ACK not signed with the device's secret"
    return club.decode_ack(body)


def imported_as_history_import(tmp_path, payloads, device=DEVICE):
    """The history rows `tafel history import` makes of an export of these records (a database of its own)."""
    doc = export.document(device, None, [export.game_from_journal(b"".join(frames(payloads)))])
    path = tmp_path / "imported.sqlite3"
    with History(path) as hist:
        hist.import_doc(doc)
    return game_rows(path)


def game_rows(path, device=DEVICE):
    """What the history holds of a device's games: the stored document and the seats' and rounds' rows."""
    db = sqlite3.connect(str(path))
    try:
        games = {game: json.loads(doc) for game, doc in db.execute(
            "SELECT id, doc FROM games WHERE device = ? ORDER BY id", (device,))}
        seats = db.execute("SELECT * FROM seats WHERE device = ? ORDER BY game, seat", (device,)).fetchall()
        rounds = db.execute("SELECT * FROM rounds WHERE device = ? ORDER BY game, number, seat", (device,)).fetchall()
        columns = db.execute("SELECT id, created, variant, target, players, totals, winners, finished, records "
                             "FROM games WHERE device = ? ORDER BY id", (device,)).fetchall()
    finally:
        db.close()
    return {"games": games, "seats": seats, "rounds": rounds, "columns": columns}


def stored_records(path, device=DEVICE):
    """[(game, seq, frame)] of the club's stored records."""
    db = sqlite3.connect(str(path))
    try:
        return [(g, s, bytes(f)) for g, s, f in db.execute(
            "SELECT game, seq, frame FROM club_records WHERE device = ? ORDER BY game, seq", (device,))]
    finally:
        db.close()
