# Pulling a signed bundle over HTTP from `tafel serve-update` into update/stage.py's Stager, resumably.
#
#   http = Http(host, port)
#   offer = get_offer(http)          # {"app": "0.9.0", "id": "<16 hex>", "size": N, "head": N, "bundle": path}
#   for done, total in steps(stager, http, offer):   # one chunk a step: the UI redraws between them
#       ...
#   version = stager.finish()        # checks everything again, switches (the restart runs it on trial)
#
# What is fetched is decided by the Stager alone: begin() with the offer's
# bundle id resumes a transfer begun before (a dropped connection, a power
# cut), status() says how much of the head and of which files' bodies is on
# flash; only the missing byte ranges are asked for (HTTP Range), and files
# the device has already (unchanged since the running version, or staged
# before) are never fetched. Each chunk is on flash before the next is read.
# Nothing the server says is trusted: the Stager checks the signature once
# the head is in and every file's SHA-256 (docs/updates.md). A connection that
# drops is opened again, _RETRIES times without progress; then "server_gone",
# and the next attempt resumes from what is on flash.
# Refusals beyond the Stager's: no_server (cannot connect), server_gone (went
# away during the transfer), bad_offer (not a Tafel server's answer; detail:
# the HTTP status or what was wrong).
from binascii import unhexlify

from micropython import const

from tafel.bundle.errors import UpdateError

CHUNK = const(1024)  # bytes put() at a time: one flash append each, gathered in the Stager's pieces (4 x 256)
_TIMEOUT_S = const(10)  # a server that says nothing this long is gone
_RETRIES = const(3)
OFFER = "/tafel/offer"


class Http:
    """A tiny HTTP/1.1 client on one kept-alive connection (GET only, Content-Length bodies)."""

    def __init__(self, host, port, timeout_s=_TIMEOUT_S):
        self.host = host
        self.port = port
        self.timeout_s = timeout_s
        self.sock = None
        self.left = 0  # body bytes of the last answer not read yet
        self.closing = False  # the server said Connection: close

    def _open(self):
        import socket

        addr = socket.getaddrinfo(self.host, self.port)[0][-1]
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(self.timeout_s)
        try:
            s.connect(addr)
        except OSError:
            s.close()
            raise
        self.sock = s

    def close(self):
        self.left = 0  # nothing more comes of this body
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def get(self, path, first=None, last=None):
        """Send GET path (bytes first..last if given); (status, body length). OSError if the line drops."""
        if self.left or self.closing:
            self.close()  # an unread body, or the server is done with this connection
        fresh = self.sock is None
        if fresh:
            self._open()
        req = "GET %s HTTP/1.1\r\nHost: %s\r\n" % (path, self.host)
        if first is not None:
            req += "Range: bytes=%d-%d\r\n" % (first, last)
        try:
            self._send((req + "\r\n").encode())
            line = self.sock.readline()
            if not line and not fresh:
                raise OSError("closed")  # a kept connection the server had closed meanwhile
        except OSError:
            self.close()
            if fresh:
                raise
            return self.get(path, first, last)  # once more, on a new connection
        return self._answer(line)

    def _answer(self, line):
        parts = line.split()
        if len(parts) < 2 or not parts[0].startswith(b"HTTP/1."):
            self.close()
            raise OSError("no HTTP answer")
        length = 0
        self.closing = False
        while True:
            h = self.sock.readline()
            if not h:
                self.close()
                raise OSError("closed")
            if h in (b"\r\n", b"\n"):
                break
            name, _, value = h.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection" and value.strip().lower() == b"close":
                self.closing = True
        self.left = length
        return int(parts[1]), length

    def readinto(self, buf):
        """Body bytes into buf (at most what is left); OSError if the line drops before the end."""
        n = min(len(buf), self.left)
        if not n:
            return 0
        got = self.sock.readinto(memoryview(buf)[:n])
        if not got:
            self.close()
            raise OSError("closed")
        self.left -= got
        return got

    def body(self, limit=1024):
        """The whole (small) body as bytes."""
        if self.left > limit:
            raise UpdateError("bad_offer", "size")
        buf = bytearray(self.left)
        pos = 0
        while self.left:
            pos += self.readinto(memoryview(buf)[pos:])
        return bytes(buf)

    def _send(self, data):
        view = memoryview(data)
        while view:
            n = self.sock.send(view)
            view = view[n:]


def get_offer(http):
    """What the server offers (a dict, checked for shape); no_server / bad_offer."""
    import json

    try:
        status, _ = http.get(OFFER)
        text = http.body()
    except OSError:
        http.close()
        raise UpdateError("no_server", "%s:%d" % (http.host, http.port))
    if status != 200:
        raise UpdateError("bad_offer", status)
    try:
        offer = json.loads(text)
        ok = offer.get("format") == "tafel-offer" and type(offer.get("app")) is str \
            and len(unhexlify(offer["id"])) == 8 and type(offer["head"]) is int \
            and type(offer["size"]) is int and offer["bundle"].startswith("/")
    except (ValueError, KeyError, TypeError, AttributeError):
        ok = False
    if not ok:
        raise UpdateError("bad_offer", "offer")
    return offer


def steps(stager, http, offer, chunk=CHUNK):
    """Generator: stage the offered bundle; yields (bytes done, bytes to do) after each chunk.

    At its end the bundle is whole on flash and checked file by file; finish() switches."""
    head = offer["head"]
    stager.begin(unhexlify(offer["id"]), head)
    _, have, _ = stager.status()
    # The Stager's block pieces, not a buffer of `chunk` bytes: no 1 KB run of heap needed.
    buf = (stager.pieces(), chunk)
    job = [0, offer["size"] - have]  # done, total: the bundle's size until the head says more
    yield from _fetch(stager, http, offer, 0, 0, have, head, buf, job)
    _, _, wanted = stager.status()
    files = stager.manifest.files
    job[1] = job[0] + sum(files[i].stored - got for i, got in wanted)
    yield tuple(job)
    for i, got in wanted:
        entry = files[i]
        yield from _fetch(stager, http, offer, i + 1, entry.offset, got, entry.stored, buf, job)


def _fetch(stager, http, offer, what, base, have, size, buf, job):
    # Part `what` (0 the head, i + 1 file i's body) from byte `have` to `size`, a
    # Range request at a time; after a drop, again from what the Stager holds.
    tries = 0
    while have < size:
        try:
            status, length = http.get(offer["bundle"], base + have, base + size - 1)
            if status == 404:
                raise UpdateError("bad_offer", 404)  # the server offers another bundle now
            if status != 206 or length != size - have:
                raise UpdateError("bad_offer", status)
            while http.left:
                n, data = _gather(http, buf)
                now = stager.put(what, have, data)
                if now != have + n:  # not where we were: ask again from where the Stager is
                    have = now
                    http.close()
                    break
                have = now
                tries = 0
                job[0] += n
                yield tuple(job)
        except OSError:
            http.close()
            tries += 1
            if tries > _RETRIES:
                raise UpdateError("server_gone")
            _, have, wanted = stager.status()
            if what:
                have = size
                for i, got in wanted:
                    if i == what - 1:
                        have = got


def _gather(http, buf):
    # Up to `chunk` bytes of the body into the pieces: (bytes, a tuple of views of them for put).
    pieces, chunk = buf
    views = []
    n = 0
    for piece in pieces:
        if not http.left or n >= chunk:
            break
        view = memoryview(piece)[:min(len(piece), chunk - n)]
        got = 0
        try:
            while got < len(view) and http.left:
                got += http.readinto(view[got:])
        except OSError:  # the line dropped: what came before it is kept (put), then the drop is handled
            if not n + got:
                raise
            views.append(view[:got])
            return n + got, tuple(views)
        views.append(view[:got])
        n += got
    return n, tuple(views)
