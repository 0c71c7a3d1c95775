# End to end over Wi-Fi in the simulator: version N installed with a test key in its trust store
# (as test_update_e2e.py does), a game played, `tafel serve-update` offering N+1 on loopback; the
# device is given the network and the server in Settings > WLAN, fetches through Settings > Update,
# restarts into N+1; `tafel info` over the pseudo-terminal says so and the game is still there.
# Then a transfer cut off in the middle of a response resumes from what the device kept, and a
# bundle altered on the way is refused with the running version untouched. The simulator's
# Wi-Fi is sim/simnet.py: its sockets are real ones on 127.0.0.1.
import json
import socket
import subprocess
import threading
import urllib.request

import pytest

from simlink import SimPort, tafel
from simupdate import GAME, install, script, signed_versions
from tafel_host.cli import main
from tafel_host.link.client import Link
from tafel_host.sim.device import SimDevice
from tafel_host.sim.launcher import DEFAULT_BOARD, auto_command, find_board, find_run_py
from tafel_host.update import bundle_build
from tafel_host.update import serve as serve_update

# From the standings after GAME: home, settings, WLAN (up three, round), network, password, server.
WLAN = "* 4 C C C # 8 2 3 3 3 wait:1200 3 3 5 5 5 # 4 3 3 4 4 wait:1200 3 3 4 4 4 6 # %s #"
UPDATE = "D # wait:500"  # from WLAN: the offer on the screen
SETTINGS = "4 C C C"  # from home after a restart: settings, on WLAN


def address(port):
    return " ".join("127A0A0A1B%d" % port)


def served_bytes(server):
    return sum(last + 1 - first for first, last in server.served)


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    return signed_versions(tmp_path_factory.mktemp("wifi-update"), ("0.8.0", "0.9.0"))


@pytest.fixture
def serve(setup):
    servers = []

    def start(version="0.9.0", port=0):
        offer = serve_update.check(setup.bundles[version], [setup.public])
        server = serve_update.Server(offer, "127.0.0.1", port, discovery_port=0, log=lambda text: None).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        if server.threads[0].is_alive():
            server.stop()


class Sim:
    """The simulated device driven key by key (tafel_host.sim.device.SimDevice), with the screen's text."""

    def __init__(self, flash):
        self.dev = SimDevice(auto_command(find_run_py(), flash, find_board(DEFAULT_BOARD)))
        self.dev.start()

    def play(self, keys):
        for token in keys.split():
            if token.startswith("wait:"):
                self.dev.wait(int(token[5:]))
            else:
                self.dev.key(token)
        return self.dev.snap().text

    def version(self):
        """The version the About screen shows, from wherever the device is."""
        text = self.play("* * * * C #")
        return [row.split()[-1] for row in text if row.startswith("Version")][0]


def test_update_over_wifi_keeps_the_games(setup, serve, capsys):
    flash = setup.dir / "wifi-a.img"
    install(setup, flash, "0.8.0")
    server = serve()
    keys = GAME + "\n" + WLAN % address(server.port) + "\n" + UPDATE + "\n# wait:3000"
    with SimPort(script(setup, "wifi.txt", keys), flash, setup.dir) as sim:
        assert main(["info", "--port", sim.port]) == 0
        out = capsys.readouterr().out
        assert "firmware 0.9.0" in out
        link = Link.open(sim.port)
        games = link.games()
        link.close()
    assert len(games) == 1 and games[0]["rounds"] == 1  # the game played on 0.8.0
    need = serve_update.check(setup.bundles["0.9.0"], [setup.public])
    assert server.served[0] == (0, need.head - 1)  # the head, then only what changed
    assert served_bytes(server) < len(need.data) // 4


def given_the_server(sim, port):
    """From a fresh home: the network (any name, no password) and the server's address."""
    sim.play("wait:100 " + SETTINGS + " # 8 2 3 3 3 wait:1200 3 3 5 5 5 # # " + address(port) + " #")


def test_a_transfer_cut_off_resumes_from_what_the_device_kept(setup, serve, monkeypatch):
    flash = setup.dir / "wifi-b.img"
    install(setup, flash, "0.8.0")
    server = serve()
    send = serve_update._Handler._send
    cut = {"at": 3000}

    def dying(handler, status, body, kind="text/plain", extra=None):
        # The laptop goes away 3000 bytes into the head: headers and part of the body, then nothing.
        if status == 206 and cut["at"] is not None:
            handler.send_response(206)
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body[:cut["at"]])
            handler.wfile.flush()
            cut["at"] = None
            handler.close_connection = True
            threading.Thread(target=handler.server.owner.stop).start()
            return
        send(handler, status, body, kind, extra)

    monkeypatch.setattr(serve_update._Handler, "_send", dying)
    sim = Sim(flash)
    try:
        given_the_server(sim, server.port)
        text = sim.play(UPDATE + " # wait:2000")
        assert text[0] == "Kein Update" and text[2] == "Server weg" and text[3] == ""  # never the raw key
        assert text[5] == "Später: weiter"
        monkeypatch.setattr(serve_update._Handler, "_send", send)
        again = serve(port=server.port)  # back, at the same address
        text = sim.play("* # wait:500")
        assert text[2] == "Neu: 0.9.0" and text[3] == "Jetzt: 0.8.0"
        sim.play("# wait:3000")
        assert sim.version() == "0.9.0"
    finally:
        sim.dev.close()
    assert server.served[0][0] == 0 and again.served[0][0] == 3000  # only what the device did not have
    assert len(again.served) == 2  # the rest of the head, then the one file that changed


def test_a_bundle_altered_on_the_way_is_refused_and_nothing_changes(setup, serve):
    flash = setup.dir / "wifi-c.img"
    install(setup, flash, "0.8.0")
    server = serve()
    data = bytearray(server.offer.data)
    entry = bundle_build.read_manifest_unchecked(bytes(data)).file("lib/tafel/version.mpy")
    data[entry.offset + entry.stored // 2] ^= 0x40
    server.offer.data = bytes(data)  # what a stranger on the network could do to the answers
    sim = Sim(flash)
    try:
        given_the_server(sim, server.port)
        text = sim.play(UPDATE + " # wait:2000")
        assert text[0] == "Kein Update" and text[2] == "Datei defekt" and text[3] == ""
        sim.dev.power_cut()
        assert sim.version() == "0.8.0"
    finally:
        sim.dev.close()


def test_serve_update_prints_where_it_serves_and_checks_the_bundle(setup):
    store = setup.dir / "trusted.py"
    proc = subprocess.Popen(tafel("serve-update", setup.bundles["0.9.0"].parent, "--host", "127.0.0.1", "--port",
                                  "0", "--discovery-port", "0", "--trust-store", store),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = [proc.stdout.readline() for _ in range(3)]
        assert lines[0].startswith("offering 0.9.0 (tafel-0.9.0.bundle")
        assert lines[1].startswith("serving on http://127.0.0.1:")
        port = int(lines[1].rsplit(":", 1)[1].strip(" /\n"))
        with urllib.request.urlopen("http://127.0.0.1:%d/tafel/offer" % port) as answer:
            offer = json.loads(answer.read())
        assert offer["app"] == "0.9.0" and offer["format"] == "tafel-offer"
        request = urllib.request.Request("http://127.0.0.1:%d%s" % (port, offer["bundle"]),
                                         headers={"Range": "bytes=10-19"})
        with urllib.request.urlopen(request) as answer:
            assert answer.status == 206 and answer.headers["Content-Range"] == "bytes 10-19/%d" % offer["size"]
            assert answer.read() == setup.bundles["0.9.0"].read_bytes()[10:20]
        # each request is logged by the thread that served it: under load the two lines may come in either order
        logged = proc.stdout.readline() + proc.stdout.readline()
        assert "127.0.0.1 asks: offered 0.9.0" in logged
        assert "127.0.0.1 bundle 0.9.0 bytes 10-19 (10)" in logged
    finally:
        proc.send_signal(2)  # Ctrl-C
        out, err = proc.communicate(timeout=30)  # a loaded machine (the whole suite) can be slow to stop
    assert proc.returncode == 0 and "stopped" in out
    assert "foreign.bundle" in err and "foreign_key" in err  # checked, not offered


def test_a_search_broadcast_is_answered_with_the_port(setup, serve):
    offer = serve_update.check(setup.bundles["0.9.0"], [setup.public])
    free = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    free.bind(("", 0))
    port = free.getsockname()[1]  # a UDP port for this test's discovery, free just now
    free.close()
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    server = serve_update.Server(offer, "127.0.0.1", 0, discovery_port=port, log=lambda text: None).start()
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        probe.settimeout(5)
        probe.sendto(b"TAFEL? 1", ("127.255.255.255", port))
        answer, sender = probe.recvfrom(64)
    finally:
        server.stop()
        probe.close()
    assert answer == b"TAFEL 1 %d 0.9.0" % server.port and sender[0] == "127.0.0.1"


def test_power_cuts_in_the_middle_of_a_wifi_update_lose_nothing(setup, serve):
    # The plug pulled at several moments of the fetch (the kill tests of the USB path, over Wi-Fi):
    # every boot runs a whole 0.8.0 or 0.9.0, and the next Update goes on from what the device kept.
    flash = setup.dir / "wifi-d.img"
    install(setup, flash, "0.8.0")
    server = serve()
    sim = Sim(flash)
    seen = []
    try:
        given_the_server(sim, server.port)
        sim.play(UPDATE)
        for ms in (20, 60, 150, 400):
            sim.play("# wait:%d" % ms)  # fetching ...
            sim.dev.power_cut()
            seen.append(sim.version())
            if seen[-1] == "0.9.0":
                break
            sim.dev.power_cut()  # a fresh home (the About screen moved its cursor), then Settings > Update again
            sim.play("wait:100 " + SETTINGS + " " + UPDATE)
        if seen[-1] != "0.9.0":
            sim.play("# wait:3000")
            seen.append(sim.version())
    finally:
        sim.dev.close()
    assert set(seen) <= {"0.8.0", "0.9.0"} and seen[-1] == "0.9.0", seen
    assert len(seen) >= 2  # at least one cut fell inside the transfer
    starts = [first for first, _ in server.served]
    assert len(starts) >= 2 and starts[0] == 0, server.served  # cut after the head, then the rest:
    assert all(first > 0 for first in starts[1:]), server.served  # the head is never fetched again
