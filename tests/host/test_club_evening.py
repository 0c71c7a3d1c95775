# A club evening end to end: three simulated tables (the simulator's device with its USB serial), each
# paired by `tafel club pair`, play at once against `tafel club serve` with the broker built in and
# against Mosquitto; every table's games, exported over USB afterwards, are in the hub's history round
# for round, and every record is stored once.
#
# The tables' time follows the laptop's while the test waits on the hub (the hub is a process of its
# own); between waits each table's keys go in turn, so their records reach the broker interleaved.
import json
import threading
import time

import pytest

from needs import POSIX, needs
from tafel_host.club.registry import Registry

try:
    import club_wire
    from test_club_device import GAME, ROUND, WLAN, Table
except ImportError:  # no amqtt: skipped here, an error where everything is required (.ci/run)
    club_wire = None

CLUB = "abendclub"
TABLES = 3
ROUNDS = 3  # after the game's first round (GAME): five records a table

pytestmark = [needs(POSIX, "pseudo-terminals", "run it on Linux or macOS"),
              needs(club_wire is not None, "amqtt (the club extra)", "make's .venv has it; or pip install -e '.[club]'")]


def step_all(tables, done, what, timeout=120.0):
    """Let every table run as the laptop's clock goes until done(); fails after timeout."""
    end = time.monotonic() + timeout
    pause = threading.Event()  # nothing sets it: each pass waits 20 ms of the laptop's time
    while not done():
        assert time.monotonic() < end, "%s did not happen within %.0f s" % (what, timeout)
        pause.wait(0.02)
        for table in tables:
            now = time.monotonic()
            table.dev.wait(max(10, int((now - table.at) * 1000)))
            table.at = now


def stored(db):
    with Registry(db) as registry:
        return registry.db.execute("SELECT device, game, seq FROM club_records ORDER BY device, game, seq").fetchall()


def history_games(db):
    with Registry(db) as registry:
        return {(device, game): json.loads(doc) for device, game, doc in
                registry.db.execute("SELECT device, id, doc FROM games")}


@pytest.mark.parametrize("broker", ["built in", "mosquitto"])
def test_three_tables_play_at_once_and_the_hub_has_every_round_of_every_table(tmp_path, data_home, broker):
    if broker == "mosquitto" and club_wire.mosquitto() is None:
        pytest.skip("mosquitto: apt-get install mosquitto (Debian, Ubuntu), brew install mosquitto (macOS)")
    db = tmp_path / "history.sqlite3"
    tables, hub, mosquitto = [], None, None
    try:
        if broker == "mosquitto":
            mosquitto, port = club_wire.broker(tmp_path)
        else:
            port = club_wire.free_port()
        for i in range(TABLES):
            table = Table(tmp_path / ("table%d.img" % i), "sim-00000000cafe%02d" % i)
            tables.append(table)
            table.keys(WLAN)
            assert table.command(["club", "pair", "--port", table.serial.path, "--hub", "127.0.0.1:%d" % port,
                                     "--table", "Tisch %d" % (i + 1), "--club", CLUB, "--db", str(db)]) == 0
        with Registry(db) as registry:
            devices = sorted(d.device_id for d in registry.devices(CLUB))
        assert len(devices) == TABLES
        if broker == "mosquitto":
            url = "mqtt://127.0.0.1:%d" % port
            hub = club_wire.hub(db, "--broker", url)
            hub.wait_for("ready: %s" % url)
        else:
            hub, _ = club_wire.hub_listening(db, port)
        for table in tables:  # each table's game and first round, one table after another
            table.keys(GAME)
        for _ in range(ROUNDS):  # then a round at each table in turn
            for table in tables:
                table.keys(ROUND)
        step_all(tables, lambda: len(stored(db)) == TABLES * (2 + ROUNDS), "every record at the hub")
        assert stored(db) == [(d, 1, seq) for d in devices for seq in range(2 + ROUNDS)]  # each once, in order
        with Registry(db) as registry:
            assert registry.rejections() == []  # nothing refused, nothing came twice
        history = history_games(db)
        for i, table in enumerate(tables):  # each table's own journal, exported over USB, against the hub's
            out = tmp_path / ("table%d.json" % i)
            assert table.command(["export", "--port", table.serial.path, "-o", str(out)]) == 0
            exported = json.loads(out.read_text())
            (game,) = exported["games"]
            kept = history[(exported["device"]["id"], game["id"])]
            assert len(game["rounds"]) == 1 + ROUNDS
            for mine, hubs in zip(game["rounds"], kept["rounds"]):
                assert mine == hubs, (i, mine, hubs)  # round for round: winner, hands, scores
            assert (kept["players"], kept["totals"]) == (game["players"], game["totals"])
    finally:
        for table in tables:
            table.close()
        if hub is not None:
            hub.stop()
        if mosquitto is not None:
            mosquitto.stop()
