# Specification of the live board's web server: the page by language, the board as JSON and as events, the organiser's round.
import json
import socket
import urllib.error
import urllib.request

import pytest

from boardserver import BoardServer, board, table
from tafel_host.club import web


@pytest.fixture
def server():
    drawn = []

    def organiser(players, tables):
        if tables > len(players) // 2:
            raise ValueError("%d players do not fit %d tables" % (len(players), tables))
        drawn.append((players, tables))
        return {"round": len(drawn), "tables": [players[i::tables] for i in range(tables)]}

    s = BoardServer(board([table("esp32-aa", "1", ["Anna", "Ben"], [120, 0])]), organiser, "geheim")
    s.drawn = drawn
    yield s
    s.close()


def get(url, **headers):
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=5) as answer:
        return answer.status, answer.headers.get("Content-Type"), answer.read()


def post(url, doc):
    request = urllib.request.Request(url + "round", data=json.dumps(doc).encode(), method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_the_page_speaks_the_browsers_language():
    assert web.language("de-DE,de;q=0.9,en;q=0.8") == "de"
    assert web.language("fr-FR, de;q=0.5") == "de"
    assert web.language("fr-FR") == "en" and web.language(None) == "en"
    assert web.language("de-DE", asked="en") == "en"


def test_the_page_is_served_in_german_or_english(server):
    status, kind, body = get(server.url, **{"Accept-Language": "de-AT,de;q=0.9"})
    assert status == 200 and kind.startswith("text/html") and b'<html lang="de">' in body
    _, _, body = get(server.url + "?lang=en&tv=1", **{"Accept-Language": "de"})
    assert b'<html lang="en">' in body and b'<body class="tv">' in body


def test_the_board_is_there_as_json(server):
    status, kind, body = get(server.url + "board.json")
    assert status == 200 and kind == "application/json"
    assert json.loads(body)["tables"][0]["players"] == ["Anna", "Ben"]
    assert get(server.url + "board.json")[0] == 200
    with pytest.raises(urllib.error.HTTPError) as err:
        get(server.url + "nothing")
    assert err.value.code == 404


def read_event(sock, buf, end=b"\n\n"):
    while end not in buf[0]:
        chunk = sock.recv(65536)
        assert chunk, "the stream ended"
        buf[0] += chunk
    event, _, buf[0] = buf[0].partition(end)
    return event


def test_every_change_reaches_an_open_event_stream(server):
    port = int(server.url.rsplit(":", 1)[1].strip("/"))
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        buf = [b""]
        head = read_event(sock, buf, b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200") and b"text/event-stream" in head
        first = read_event(sock, buf)
        assert json.loads(first[len(b"data: "):])["tables"][0]["totals"] == [120, 0]
        server.publish(board([table("esp32-aa", "1", ["Anna", "Ben"], [120, 87])]))
        second = read_event(sock, buf)
        assert json.loads(second[len(b"data: "):])["tables"][0]["totals"] == [120, 87]


def test_only_the_organiser_draws_a_round(server):
    ask = {"players": ["Anna", "Ben", "Cleo", "Dora"], "tables": 2}
    assert post(server.url, ask)[0] == 403
    assert post(server.url, dict(ask, password="falsch"))[0] == 403
    status, answer = post(server.url, dict(ask, password="geheim"))
    assert status == 200 and answer == {"round": 1, "tables": [["Anna", "Cleo"], ["Ben", "Dora"]]}
    status, answer = post(server.url, dict(ask, password="geheim", tables=3))
    assert status == 400 and "do not fit" in answer["error"]
    assert post(server.url, {"password": "geheim", "players": "Anna", "tables": 2})[0] == 400
    assert server.drawn == [(["Anna", "Ben", "Cleo", "Dora"], 2)]


def test_without_a_password_set_nobody_draws():
    s = BoardServer(board([]), lambda players, tables: {}, None)
    try:
        assert post(s.url, {"password": "", "players": ["A", "B"], "tables": 1})[0] == 403
    finally:
        s.close()
