# The club hub under load, and a year of a club (issue 28): `tafel club serve` with many tables, then the history tools.
#
#   .venv/bin/python bench/club_load.py [--tables 50,200,1000] [--seconds 60] [--brokers amqtt,mosquitto]
#                                       [--period 10] [--no-restart] [--no-year] [--year-only]
#
# 1. Load: the real hub (`tafel club serve`, a process of its own, the broker built in or Mosquitto)
#    and N lightweight tables in this process (bench/club_tables.py: the device's MQTT, paired in the
#    registry, signed records in order, ACKs read), each playing a round every --period seconds for
#    --seconds. Per run: rounds offered and stored per second (ACKs of rounds that came in the
#    window), and the time from a table's publish of a round to the first board on the page's
#    Server-Sent Events stream (/events) that shows it (median, 99th percentile). Then, with a broker
#    restart in the middle (amqtt: the hub with its broker, SIGKILL; Mosquitto: the broker, SIGKILL,
#    no persistence), the records lost and stored twice, checked against the database after every
#    table has its ACKs. The goal: 200 tables, one round per 10 s, p99 under 1 s, on both brokers.
# 2. A year of a club (bench/club_year.py): 26,000 games of 400 players stored through the hub's
#    ingest (no MQTT), cached under build/; `tafel history`, `history --evening`, `chart`, `report`
#    timed on it (the goal: each under 2 s).
# It prints; it is no test and keeps nothing in bench/results/.
import argparse
import asyncio
import json
import os
import resource
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

import club_tables  # noqa: E402
from benchlib import machine, run_recorded  # noqa: E402
from benchlib import table as markdown  # noqa: E402
from tafel_host.club.registry import Registry  # noqa: E402

CLUB = "benchclub"
GOAL_TABLES, GOAL_P99 = 200, 1.0
DRAIN_S = 120  # the longest wait, after the last round, for every table's ACKs


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def mosquitto():
    return shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if os.access("/usr/sbin/mosquitto", os.X_OK) else None)


class Server:
    """A program with its output in a file; ready(text) waits for a line holding it."""

    def __init__(self, argv, log):
        self.log = log
        self.out = open(log, "ab")
        self.mark = self.out.tell()
        self.proc = subprocess.Popen(argv, stdout=self.out, stderr=subprocess.STDOUT, cwd=ROOT,
                                     env=dict(os.environ, PYTHONUNBUFFERED="1"))

    def ready(self, text, timeout=60):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with open(self.log, "rb") as f:
                f.seek(self.mark)
                if text.encode() in f.read():
                    return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError("no %r from %s (see %s)" % (text, self.proc.args[:5], self.log))

    def cpu(self):
        """CPU seconds used so far (Linux /proc), or None."""
        try:
            fields = Path("/proc/%d/stat" % self.proc.pid).read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return None

    def stop(self, sig=signal.SIGINT):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.out.close()


class Setup:
    """The hub (and Mosquitto) of one run, on ports of their own."""

    def __init__(self, work, broker):
        self.work, self.broker = work, broker
        self.db = work / "history.sqlite3"
        self.mqtt, self.http = free_port(), free_port()
        self.hub = self.mosq = None

    def start(self):
        if self.broker == "mosquitto":
            self.start_broker()
        self.start_hub()

    def start_broker(self):
        conf = self.work / "mosquitto.conf"
        conf.write_text("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest stderr\n"
                        "max_queued_messages 100000\n" % self.mqtt)
        self.mosq = Server([mosquitto(), "-c", str(conf)], self.work / "mosquitto.log")
        self.mosq.ready(" running")

    def start_hub(self):
        where = ["--broker", "mqtt://127.0.0.1:%d" % self.mqtt] if self.broker == "mosquitto" else [
            "--listen", "127.0.0.1:%d" % self.mqtt]
        self.hub = Server([sys.executable, "-m", "tafel_host.cli", "--lang", "en", "club", "serve", "--db",
                           str(self.db), "--club", CLUB, "--http", "127.0.0.1:%d" % self.http] + where,
                          self.work / "hub.log")
        self.hub.ready("ready")

    def restart(self):
        """The broker killed and started again on its port: amqtt's inside the hub, so the hub."""
        if self.broker == "mosquitto":
            self.mosq.stop(signal.SIGKILL)
            self.start_broker()
        else:
            self.hub.stop(signal.SIGKILL)
            self.start_hub()

    def stop(self):
        for server in (self.hub, self.mosq):
            if server is not None:
                server.stop()


class Watcher:
    """The page's view: the board stream /events, each round's latency from its table's publish."""

    def __init__(self, port, tables):
        self.port = port
        self.by_device = {t.device: t for t in tables}
        self.seen = {}  # (device, game) -> rounds already seen on the board
        self.latency = []  # (publish time, seconds to the board)
        self.boards = 0

    async def run(self):
        while True:
            try:
                await self._stream()
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                pass
            await asyncio.sleep(0.2)  # the hub restarting: the page's EventSource connects again too

    async def _stream(self):
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 26)
        try:
            writer.write(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n")
            await reader.readuntil(b"\r\n\r\n")
            while True:
                event = await reader.readuntil(b"\n\n")
                came = time.monotonic()
                if event.startswith(b"data: "):
                    self.take(json.loads(event[6:]), came)
        finally:
            writer.close()

    def take(self, board, came):
        self.boards += 1
        for row in board["tables"]:
            table = self.by_device.get(row["device"])
            if table is None or not row["players"]:
                continue
            game = int(row["players"][0].split("G")[1][:-1])  # T<table>G<game><seat>: the table's game
            key = (row["device"], game)
            for rnd in range(self.seen.get(key, 0) + 1, row["round"] + 1):
                sent = table.sent_at.get((game, rnd))
                if sent is not None:
                    self.latency.append((sent, came - sent))
            self.seen[key] = max(self.seen.get(key, 0), row["round"])


def checked(db, tables):
    """(lost, twice): records a table made that the database lacks (or holds otherwise), and records or
    rounds the database holds more than once."""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        stored = {}
        for device, game, seq, frame in con.execute("SELECT device, game, seq, frame FROM club_records"):
            stored.setdefault((device, game, seq), []).append(bytes(frame))
        docs = {(d, g): json.loads(doc) for d, g, doc in con.execute("SELECT device, id, doc FROM games")}
    finally:
        con.close()
    lost = twice = 0
    made = set()
    for t in tables:
        for game, seq, frame in t.made():
            made.add((t.device, game, seq))
            lost += stored.get((t.device, game, seq)) != [frame]
        for game, g, payloads in t.games:
            doc = docs.get((t.device, game))
            if doc is not None:
                twice += max(0, len(doc["rounds"]) - len(g.rounds)) + max(0, (doc.get("records") or 0) - len(payloads))
    twice += sum(len(v) for k, v in stored.items() if k not in made) + sum(len(v) - 1 for v in stored.values() if v)
    return lost, twice


def pct(values, q):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def load(setup, tables, seconds, restart):
    ramp = min(10.0, 2.0 + len(tables) / 200.0)  # connecting spread out, as tables come in one by one
    now = time.monotonic()
    start, until = now + ramp, now + ramp + seconds
    watcher = Watcher(setup.http, tables)
    watching = asyncio.ensure_future(watcher.run())
    players = [asyncio.ensure_future(t.run(now + ramp * i / len(tables), until)) for i, t in enumerate(tables)]
    cpu0 = None
    try:
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        cpu0, wall0 = setup.hub.cpu(), time.monotonic()
        if restart:
            await asyncio.sleep(seconds / 2)
            await asyncio.to_thread(setup.restart)
        await asyncio.gather(*players)
        cpu1, wall1 = setup.hub.cpu(), time.monotonic()
        drained = time.monotonic() + DRAIN_S
        while time.monotonic() < drained and sum(t.owed() for t in tables):
            await asyncio.sleep(0.2)
        owed = sum(t.owed() for t in tables)
        settle = time.monotonic() + 5  # the last boards
        while time.monotonic() < settle and sum(watcher.seen.values()) < sum(len(g.rounds) for t in tables
                                                                           for _, g, _ in t.games):
            await asyncio.sleep(0.1)
    finally:
        watching.cancel()
        for task in players:
            task.cancel()
        for t in tables:
            t.close()
    stored = sum(1 for t in tables for at in t.acked_rounds if start <= at <= until)
    inside = [lat for _, lat in watcher.latency]  # every round was played in the window
    hub_cpu = (cpu1 - cpu0) / (wall1 - wall0) if cpu0 is not None and not restart else None
    return {"offered": len(tables) / tables[0].period, "stored": stored / seconds, "p50": pct(inside, 0.5),
            "p99": pct(inside, 0.99), "seen": len(inside), "sent": sum(1 for t in tables for k in t.sent_at),
            "owed": owed, "cpu": hub_cpu, "boards": watcher.boards,
            "reconnects": sum(t.connects for t in tables) - len(tables)}


def run_one(work, broker, n, seconds, period, restart):
    setup = Setup(work, broker)
    tables = club_tables.tables(n, CLUB, "127.0.0.1", setup.mqtt, period)
    with Registry(setup.db) as registry:
        for t in tables:
            registry.pair(t.device, t.name, t.secret, CLUB)
    setup.start()
    try:
        got = asyncio.run(load(setup, tables, seconds, restart))
    finally:
        setup.stop()
    got["lost"], got["twice"] = checked(setup.db, tables)
    return got


def secs(value):
    return "-" if value is None else "%.0f ms" % (value * 1000) if value < 10 else "%.1f s" % value


def main():
    parser = argparse.ArgumentParser(description="The club hub under load, and a year of a club.")
    parser.add_argument("--tables", default="50,200,1000", help="table counts, comma-separated")
    parser.add_argument("--seconds", type=float, default=60, help="how long each run plays")
    parser.add_argument("--period", type=float, default=10, help="seconds between a table's rounds")
    parser.add_argument("--brokers", default="amqtt,mosquitto")
    parser.add_argument("--restart-tables", type=int, default=GOAL_TABLES, help="tables in the restart runs")
    parser.add_argument("--no-restart", action="store_true")
    parser.add_argument("--no-year", action="store_true")
    parser.add_argument("--year-only", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the runs' databases and logs (build/club_load/)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per table, here and in the broker
    brokers = [b for b in args.brokers.split(",") if b]
    if "mosquitto" in brokers and mosquitto() is None:
        print("(no mosquitto: apt-get install mosquitto; its runs are left out)")
        brokers.remove("mosquitto")
    status = 0
    if not args.year_only:
        print("Club hub under load: %g s per run, a round per table every %g s; %s; CPython %s" % (
            args.seconds, args.period, machine(), sys.version.split()[0]))
        print()
        (ROOT / "build").mkdir(exist_ok=True)
        runs = [(b, int(n), False) for b in brokers for n in args.tables.split(",") if n]
        if not args.no_restart:
            runs += [(b, args.restart_tables, True) for b in brokers]
        rows, misses = [], []
        for broker, n, restart in runs:
            work = Path(tempfile.mkdtemp(prefix="club_load-", dir=ROOT / "build"))
            try:
                got = run_one(work, broker, n, args.seconds, args.period, restart)
            finally:
                if not args.keep:
                    shutil.rmtree(work, ignore_errors=True)
            rows.append([broker + (", restarted" if restart else ""), n, "%.1f" % got["offered"],
                         "%.1f" % got["stored"], secs(got["p50"]), secs(got["p99"]), "%d/%d" % (got["seen"],
                                                                                               got["sent"]),
                         "-" if got["cpu"] is None else "%.0f %%" % (100 * got["cpu"]), got["reconnects"], got["owed"],
                         got["lost"], got["twice"]])
            print("  %s" % " | ".join(str(c) for c in rows[-1]), file=sys.stderr)
            if n == GOAL_TABLES and not restart and (got["p99"] is None or got["p99"] >= GOAL_P99):
                misses.append(broker)
            if restart and (got["lost"] or got["twice"]):
                status = 1
        print(markdown(["broker", "tables", "rounds/s offered", "rounds/s stored", "board p50", "board p99",
                        "rounds on board", "hub CPU", "reconnects", "unacked at end", "lost", "stored twice"],
                       rows, "lrrrrrrrrrrr"))
        print()
        print("Goal: %d tables, p99 under %g s on both brokers: %s" % (
            GOAL_TABLES, GOAL_P99, "missed on " + ", ".join(misses) if misses else "met"))
        print()
    if not args.no_year:
        import club_year
        club_year.main_part()
    return status


if __name__ == "__main__":
    sys.exit(run_recorded(main, "club_load", measured_on="CPython %s" % sys.version.split()[0]))
