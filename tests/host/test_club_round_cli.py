# `tafel club round` against a real hub on loopback: the drawn round as a table, and a clear message and exit code
# for every way it can fail (no hub there, the wrong password, too few tables, a variant or target that is none).
import re
import socket
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from club_fixtures import CLUB, DEVICE, OTHER, OTHER_SECRET, SECRET
from needs import needs
from tafel_host.cli import main
from tafel_host.club.registry import Registry

try:
    import club_wire as wire
except ImportError:  # no amqtt: skipped here, an error where everything is required (.ci/run)
    wire = None

PLAYERS = "Anna, Ben,Cleo,Dora,Emil,Fritz"


def run(capsys, *argv):
    """(exit code, standard output, standard error) of `tafel argv...`."""
    try:
        code = main(list(argv))
    except SystemExit as done:
        code = done.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    """A hub with two tables paired and the organiser's password: (process, its live board's URL)."""
    path = tmp_path_factory.mktemp("hub") / "history.sqlite3"
    with Registry(path) as registry:
        registry.pair(DEVICE, "Tisch 1", SECRET, CLUB)
        registry.pair(OTHER, "Tisch 2", OTHER_SECRET, CLUB)
    proc, _ = wire._on_a_free_port(lambda at: wire.hub(path, "--listen", "127.0.0.1:%d" % at, "--password",
                                                       "geheim"), "ready", "cannot listen")
    line = proc.lines[proc.wait_for("live board: http://")]
    yield proc, "http://127.0.0.1:%s" % re.search(r":(\d+)/", line).group(1)
    assert proc.stop() == 0, proc.output()


needs_hub = needs(wire is not None, "amqtt (the club extra)", "make's .venv has it; or pip install -e '.[club]'")


@needs_hub
def test_a_round_is_drawn_on_the_hub_and_printed_a_table_a_line(hub, capsys, monkeypatch):
    monkeypatch.setenv("TAFEL_CLUB_PASSWORD", "geheim")
    code, out, err = run(capsys, "club", "round", "--players", PLAYERS, "--tables", "2", "--hub", hub[1])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["round", "table", "players"]
    assert [re.split(" {2,}", line.strip())[:2] for line in lines[1:]] == [["1", "Tisch 1"], ["1", "Tisch 2"]]
    seated = [name for line in lines[1:] for name in re.split(" {2,}", line)[-1].split(", ")]
    assert sorted(seated) == ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz"]
    code, out, err = run(capsys, "club", "round", "--players", PLAYERS, "--tables", "2", "--hub",
                         hub[1][len("http://"):], "--password", "geheim", "--variant", "penalty", "--target", "300")
    assert code == 0, err
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["2", "2"]


@needs_hub
def test_the_wrong_password_is_refused_and_said(hub, capsys):
    code, out, err = run(capsys, "club", "round", "--players", PLAYERS, "--tables", "2", "--hub", hub[1],
                         "--password", "falsch")
    assert code == 2 and not out and "refused the password" in err and "TAFEL_CLUB_PASSWORD" in err
    code, out, err = run(capsys, "--lang", "de", "club", "round", "--players", PLAYERS, "--tables", "2", "--hub",
                         hub[1], "--password", "falsch")
    assert code == 2 and "lehnt das Passwort ab" in err


@needs_hub
def test_more_tables_than_are_paired_is_said_in_the_laptops_language(hub, capsys):
    many = PLAYERS + ",Greta,Hanna"
    code, out, err = run(capsys, "club", "round", "--players", many, "--tables", "3", "--hub", hub[1],
                         "--password", "geheim")
    assert code == 2 and not out and "3 tables asked for, 2 paired" in err
    code, out, err = run(capsys, "--lang", "de", "club", "round", "--players", many, "--tables", "3", "--hub",
                         hub[1], "--password", "geheim")
    assert code == 2 and "3 Tische verlangt, 2 gekoppelt" in err


def test_a_hub_that_is_not_there_is_said_with_its_address(capsys):
    with socket.socket() as sock:  # a port nobody listens on: bound, never listening
        sock.bind(("127.0.0.1", 0))
        url = "http://127.0.0.1:%d" % sock.getsockname()[1]
        code, out, err = run(capsys, "club", "round", "--players", PLAYERS, "--tables", "2", "--hub", url,
                             "--password", "geheim")
        assert code == 1 and not out and "cannot reach the hub at " + url in err
        code, out, err = run(capsys, "--lang", "de", "club", "round", "--players", PLAYERS, "--tables", "2",
                             "--hub", url, "--password", "geheim")
        assert code == 1 and "nicht erreichbar" in err


def test_something_else_on_the_port_is_no_hub(capsys):
    class Page(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"<html>a router's page</html>")

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        code, out, err = run(capsys, "club", "round", "--players", PLAYERS, "--tables", "2", "--hub",
                             "http://127.0.0.1:%d" % server.server_port, "--password", "geheim")
    finally:
        server.shutdown()
        server.server_close()
    assert code == 1 and "not as a Tafel hub's live board does" in err


@pytest.mark.parametrize("args, said", [
    (["--variant", "poker"], "no variant 'poker'"),
    (["--target", "0"], "a target is a whole number from 1 to 100000, not 0"),
    (["--tables", "4"], "6 players do not fit 4 tables (2 to 10 at a table)"),
    (["--players", "Anna,Ben,Anna,Cleo"], "a player is named twice"),
])
def test_what_cannot_be_drawn_is_refused_before_the_hub_is_asked(capsys, args, said):
    argv = {"--players": PLAYERS, "--tables": "2", "--hub": "http://127.0.0.1:9", "--password": "geheim"}
    argv.update(zip(args[::2], args[1::2]))
    code, out, err = run(capsys, "club", "round", *[x for pair in argv.items() for x in pair])
    assert code == 2 and not out and said in err


def test_without_a_password_nothing_is_asked(capsys, monkeypatch):
    monkeypatch.delenv("TAFEL_CLUB_PASSWORD", raising=False)
    code, out, err = run(capsys, "club", "round", "--players", PLAYERS, "--tables", "2", "--hub", "http://127.0.0.1:9")
    assert code == 2 and "password is needed" in err and "$TAFEL_CLUB_PASSWORD" in err
    code, out, err = run(capsys, "--lang", "de", "club", "round", "--players", PLAYERS, "--tables", "2")
    assert code == 2 and "Passwort der Turnierleitung fehlt" in err


def test_the_hubs_reason_travels_as_a_key_said_here(capsys, monkeypatch):
    # A hub answering in German, a laptop asking in English: the key decides the words, not the hub's text.
    monkeypatch.setattr("tafel_host.club.round_cli.post_round", lambda url, doc: (400, {
        "error": "der Hub ist gerade nicht mit dem Broker verbunden", "why": "club_not_connected", "values": []}))
    code, out, err = run(capsys, "club", "round", "--players", PLAYERS, "--tables", "2", "--password", "geheim")
    assert code == 1 and "not connected to the broker just now" in err
    monkeypatch.setattr("tafel_host.club.round_cli.post_round", lambda url, doc: (400, {
        "error": "from a newer hub", "why": "club_something_new", "values": [1]}))
    code, out, err = run(capsys, "club", "round", "--players", PLAYERS, "--tables", "2", "--password", "geheim")
    assert code == 2 and "from a newer hub" in err
