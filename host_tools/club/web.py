# The live board's web server: the page, the board as JSON, its changes as Server-Sent Events, the organiser's round.
#
# One asyncio server (the hub's own loop, beside the MQTT client), plain
# HTTP/1.1 for a club's network: no framework, nothing to install.
#   GET  /             the page (board.html) in the browser's language (Accept-Language;
#                      ?lang=de or ?lang=en overrides); ?tv=1 starts in the large full-screen layout
#   GET  /board.json   the board now
#   GET  /events       the board now and at every change, as Server-Sent Events ("data: JSON");
#                      a comment line every KEEPALIVE_S seconds keeps proxies from closing it
#   POST /round        the organiser: {"password", "players": [names], "tables": N[, "variant", "target"]}; the
#                      drawn round ({"round": n, "tables": [[names]]}), 403 without the password set
#                      at `tafel club serve`, 400 with the reason for a round that cannot be drawn
#                      ({"error": text[, "why": a texts_*_club.py key, "values": its values]})
# Everyone else reads: nothing but /round changes anything, and /round only with the password.
#
# The board (what LiveBoard.publish takes; the hub makes it, the page renders it):
#   {"club": name, "evening": "2026-12-06", "now": epoch s, "stale_min": minutes without a round
#    after which the organiser's view marks a table,
#    "tables": [{"device", "table": its name, "status": "online" | "offline", "finished": bool,
#                "variant", "target", "players": [names], "totals": [numbers], "round": rounds played,
#                "dealer": name or None, "last_round": epoch s or None}],
#    "leaderboard": [{"variant", "rows": [{"place", "name", "games", "wins", "points"}]}],
#    "tournament": None or {"round": n, "tables": [[names]]}}
import asyncio
import hmac
import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

KEEPALIVE_S = 15.0
MAX_BODY = 64 * 1024  # a round's players are a few hundred bytes; anything larger is refused
_LANGS = ("de", "en")
PAGE = Path(__file__).parent / "board.html"  # package data, beside this file in a wheel too


class LiveBoard:
    """The board as last published, and the event streams waiting for the next one."""

    def __init__(self, board=None):
        self.board = board or {"tables": [], "leaderboard": [], "tournament": None}
        self._streams = set()

    def publish(self, board):
        """A new board (from the hub's loop): every open /events stream gets it."""
        self.board = board
        data = _event(board)
        for queue in list(self._streams):
            queue.put_nowait(data)

    def watch(self):
        queue = asyncio.Queue()
        self._streams.add(queue)
        return queue

    def unwatch(self, queue):
        self._streams.discard(queue)


def language(accept, asked=None):
    """"de" or "en": ?lang= if it names one, else the first of Accept-Language that does, else English."""
    if asked in _LANGS:
        return asked
    for part in (accept or "").split(","):
        tag = part.split(";")[0].strip().lower()
        if tag[:2] in _LANGS:
            return tag[:2]
    return "en"


def page(lang, tv=False):
    """The board page in `lang`: board.html with its language and layout filled in."""
    html = PAGE.read_text(encoding="utf-8")
    return html.replace("{{LANG}}", lang).replace("{{TV}}", "tv" if tv else "")


async def serve(live, host, port, organiser=None, password=None):
    """Start serving `live` on host:port; returns the asyncio server (its port: sockets[0]).
    `organiser(players, tables[, variant=, target=])` draws a round, or a coroutine that does
    (ValueError: why not); None: no /round."""

    async def handle(reader, writer):
        try:
            await _handle(live, reader, writer, organiser, password)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        except asyncio.CancelledError:  # the server stops: the connection's task ends here, quietly
            pass
        finally:
            writer.close()

    return await asyncio.start_server(handle, host, port)


async def _handle(live, reader, writer, organiser, password):
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3:
        return await _answer(writer, 400, "text/plain", b"bad request")
    method, target = parts[0], parts[1]
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    url = urlsplit(target)
    query = parse_qs(url.query)
    if method == "GET" and url.path == "/":
        lang = language(headers.get("accept-language"), query.get("lang", [None])[0])
        body = page(lang, query.get("tv", ["0"])[0] == "1").encode("utf-8")
        return await _answer(writer, 200, "text/html; charset=utf-8", body)
    if method == "GET" and url.path == "/board.json":
        return await _answer(writer, 200, "application/json", json.dumps(live.board).encode("utf-8"))
    if method == "GET" and url.path == "/events":
        return await _stream(live, writer)
    if method == "POST" and url.path == "/round":
        size = int(headers.get("content-length") or 0)
        if size > MAX_BODY:
            return await _answer(writer, 413, "text/plain", b"too large")
        body = await reader.readexactly(size)
        return await _round(writer, body, organiser, password)
    return await _answer(writer, 404, "text/plain", b"not found")


async def _round(writer, body, organiser, password):
    try:
        asked = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return await _answer(writer, 400, "application/json", _error("not JSON"))
    if not isinstance(asked, dict):
        return await _answer(writer, 400, "application/json", _error("not a JSON object"))
    given = asked.get("password")
    if organiser is None or not password or not isinstance(given, str) or not hmac.compare_digest(
            given.encode("utf-8"), password.encode("utf-8")):
        return await _answer(writer, 403, "application/json", _error("the organiser's password is needed"))
    players, tables = asked.get("players"), asked.get("tables")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players) \
            or type(tables) is not int:
        return await _answer(writer, 400, "application/json", _error("players (names) and tables (a number)"))
    extra = {k: asked[k] for k in ("variant", "target") if k in asked}
    try:
        drawn = organiser([p.strip() for p in players], tables, **extra)
        if asyncio.iscoroutine(drawn):  # the hub's organiser sends the round to the tables
            drawn = await drawn
    except (ValueError, TypeError) as err:  # the tournament's Refused: its key and values too
        return await _answer(writer, 400, "application/json", _error(str(err), getattr(err, "key", None),
                                                                    getattr(err, "values", ())))
    return await _answer(writer, 200, "application/json", json.dumps(drawn).encode("utf-8"))


async def _stream(live, writer):
    queue = live.watch()  # before the first event goes: a change made as soon as it is read is not missed
    try:
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                     b"Connection: keep-alive\r\n\r\n" + _event(live.board))
        await writer.drain()
        while True:
            try:
                data = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
            except asyncio.TimeoutError:
                data = b": still here\n\n"
            writer.write(data)
            await writer.drain()
    finally:
        live.unwatch(queue)


async def _answer(writer, status, kind, body):
    reason = {200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 413: "Payload Too Large"}[status]
    writer.write(("HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nCache-Control: no-cache\r\n"
                  "Connection: close\r\n\r\n" % (status, reason, kind, len(body))).encode("latin-1") + body)
    await writer.drain()


def _event(board):
    return b"data: " + json.dumps(board, separators=(",", ":")).encode("utf-8") + b"\n\n"


def _error(text, key=None, values=()):
    doc = {"error": text}
    if key is not None:  # for a client that says it in a language of its own (tafel club round)
        doc.update(why=key, values=list(values))
    return json.dumps(doc).encode("utf-8")
