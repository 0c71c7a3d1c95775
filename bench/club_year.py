# A year of a club for bench/club_load.py: 26,000 games of 400 players stored through the hub's ingest, then the history tools timed.
#
# The games are made with the core (a table of four from the club's players, standard to TARGET)
# and every record goes through club.ingest.Ingest.handle, signed as a table sends it, as `tafel
# club serve` stores it (no MQTT: the broker adds nothing to what is stored). The database is
# written with SQLite's syncing off (a bench's own file) and kept under build/, named by the
# generator's parameters, so a second run only times. Then `tafel history` (every game's
# statistics), `tafel history --evening` (one evening's), `tafel chart` (one game) and `tafel
# report` (the latest evening) run as the organiser runs them, each a process of its own.
import hashlib
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchlib import table as markdown
from tafel import club, journal
from tafel.game import Game
from tafel_host.club.ingest import Ingest
from tafel_host.club.registry import Registry

ROOT = Path(__file__).resolve().parent.parent
CLUB = "yearclub"
PARAMS = {"games": 26000, "players": 400, "evenings": 104, "tables": 25, "target": 250, "seed": 1, "version": 1}
GOAL_S = 2.0
FIRST_EVENING = 1767384000  # 2026-01-02 20:00 UTC, a Friday


def _path(params):
    key = hashlib.sha256(repr(sorted(params.items())).encode()).hexdigest()[:12]
    return ROOT / "build" / ("club_year-%s.sqlite3" % key)


def _game(rng, names, game_id, created, target):
    game = Game(rng.sample(names, 4), "standard", target, None, created, game_id)
    payloads = [game.create_record()]
    while not game.finished:
        winner = game.players[rng.randrange(4)]
        payload = game.round_record({n: rng.randint(5, 40) for n in game.players if n != winner}, winner)
        game.apply(payload)
        payloads.append(payload)
    return payloads


def generate(path, params, say=print):
    """The year's database at `path`, made through the hub's ingest."""
    rng = random.Random(params["seed"])
    names = ["Spieler %03d" % i for i in range(params["players"])]
    per_evening = params["games"] // params["evenings"]
    tmp = Path(tempfile.mkdtemp(dir=path.parent)) / path.name
    started, records = time.monotonic(), 0
    with Registry(tmp) as registry:
        registry.db.execute("PRAGMA synchronous = OFF")
        registry.db.execute("PRAGMA journal_mode = MEMORY")
        devices = []
        for t in range(params["tables"]):
            device, secret = "year-%02d" % t, rng.randbytes(32)
            registry.pair(device, "Tisch %d" % (t + 1), secret, CLUB)
            devices.append((device, secret, club.topic(CLUB, device, "records")))
        ingest = Ingest(registry, CLUB)
        game_ids = [0] * params["tables"]
        for e in range(params["evenings"]):
            start = FIRST_EVENING + (e // 2) * 7 * 86400 + (e % 2) * 4 * 86400  # Fridays and Tuesdays
            for g in range(per_evening + (1 if e < params["games"] % params["evenings"] else 0)):
                t = g % params["tables"]
                device, secret, name = devices[t]
                game_ids[t] += 1
                created = start + (g // params["tables"]) * 1200 + t * 7
                for seq, payload in enumerate(_game(rng, names, game_ids[t], created, params["target"])):
                    message = club.sign(secret, name, club.encode_record(game_ids[t], journal.frame(seq, payload)))
                    verdict = ingest.handle(name, message, now=created + 60 * seq)
                    if not verdict.stored:
                        raise RuntimeError("not stored: %r" % verdict)
                    records += 1
            if e % 10 == 9:
                say("  (%d of %d evenings, %d records, %.0f s)" % (e + 1, params["evenings"], records,
                                                                    time.monotonic() - started))
    os.replace(tmp, path)
    os.rmdir(tmp.parent)
    return records, time.monotonic() - started


def _timed(argv, runs=3):
    best = None
    for _ in range(runs):
        began = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "tafel_host.cli", "--lang", "en"] + argv, cwd=ROOT,
                              capture_output=True, text=True)
        took = time.monotonic() - began
        if done.returncode != 0:
            raise RuntimeError("%s: %s" % (argv, done.stderr or done.stdout))
        best = took if best is None else min(best, took)
    return best


def main_part(params=PARAMS):
    path = _path(params)
    print("A year of a club: %d games of %d players on %d evenings at %d tables (%s)" % (
        params["games"], params["players"], params["evenings"], params["tables"], os.path.relpath(path, ROOT)))
    if not path.is_file():
        path.parent.mkdir(exist_ok=True)
        records, took = generate(path, params, lambda line: print(line, file=sys.stderr))
        print("made through the hub's ingest: %d records in %.0f s (%.2f ms a record)" % (records, took,
                                                                                        1000 * took / records))
    else:
        print("(the database made before: delete it to make it again)")
    import sqlite3
    con = sqlite3.connect(str(path))
    try:
        games, rounds = con.execute("SELECT COUNT(*), SUM(json_array_length(doc, '$.rounds')) FROM games").fetchone()
        device, game_id = con.execute("SELECT device, MAX(id) FROM games WHERE device = 'year-00'").fetchone()
    finally:
        con.close()
    print("%d games, %d rounds, %.1f MB" % (games, rounds, path.stat().st_size / 1e6))
    out = Path(tempfile.mkdtemp(dir=ROOT / "build"))
    db = ["--db", str(path)]
    evening = time.strftime("%Y-%m-%d", time.localtime(FIRST_EVENING + 10 * 7 * 86400 - 6 * 3600))
    runs = [("tafel history (every game's statistics)", ["history"] + db),
            ("tafel history --evening %s" % evening, ["history", "--evening", evening] + db),
            ("tafel chart %s:%d" % (device, game_id), ["chart", "%s:%d" % (device, game_id), "-o",
                                                       str(out / "chart.png")] + db),
            ("tafel report (the latest evening)", ["report", "-o", str(out / "report.html")] + db)]
    rows, slow = [], []
    for label, argv in runs:
        took = _timed(argv)
        rows.append([label, "%.2f s" % took, "yes" if took < GOAL_S else "NO"])
        if took >= GOAL_S:
            slow.append(label)
    for name in os.listdir(out):
        os.remove(out / name)
    os.rmdir(out)
    print()
    print(markdown(["command (a process of its own, best of 3)", "time", "under %g s" % GOAL_S], rows, "lrl"))
    print()
    return slow
