# `tafel serve-update [BUNDLE|DIR]`: offer a signed update bundle to devices on the Wi-Fi (HTTP, UDP discovery).
#
#   tafel serve-update                          # the newest valid *.bundle in this folder, port 7070
#   tafel serve-update tafel-0.9.0.bundle --host 127.0.0.1 --port 0
#
# HTTP/1.1 (docs/updates.md, "Wi-Fi"):
#   GET /tafel/offer        {"format": "tafel-offer", "version": 1, "app", "id", "size", "head", "bundle"}
#   GET /tafel/bundle/<id>  the bundle; "Range: bytes=A-B" gives 206 with just those bytes (the device
#                           asks only for what it lacks); another id (the bundle changed) is 404
# Discovery: a device's broadcast b"TAFEL? 1" to UDP 7071 is answered b"TAFEL 1 <http port> <version>".
# The bundle is checked at start with the device's own code (the core's tafel/bundle/, as `tafel bundle show`
# does) so a broken one is never offered, but nothing rests on the network: the device checks the
# signature and every file itself. Each request is logged; Ctrl-C stops the server.
# Exit codes: 0 stopped, 2 no valid bundle or the port cannot be had.
import hashlib
import http.server
import io
import json
import socket
import sys
import threading
import time
from pathlib import Path

from tafel.bundle import discovery, reader
from tafel.bundle.manifest import compare_versions

from ..exits import Exit
from ..lang import grouped, say
from . import keys
from .bundle_build import describe
from .client import head_of


class Offer:
    """One checked bundle: what /tafel/offer says about it, and its bytes."""

    def __init__(self, path, data, manifest):
        self.path = Path(path)
        self.data = data
        self.version = manifest.version
        self.head = len(head_of(data))
        self.id = hashlib.sha256(data[:self.head]).digest()[:8].hex()
        self.url = "/tafel/bundle/" + self.id

    def describe(self):
        return {"format": "tafel-offer", "version": 1, "app": self.version, "id": self.id, "size": len(self.data),
                "head": self.head, "bundle": self.url}


def check(path, trusted):
    """An Offer for the bundle at path, checked as a device would (any running version); UpdateError if not."""
    data = Path(path).read_bytes()
    m = reader.verify_bundle(io.BytesIO(data), trusted, None, 1 << 30, mpy=None)
    return Offer(path, data, m)


def pick(source, trusted):
    """(the newest valid Offer or None, [(path, why)] of the bundles refused)."""
    source = Path(source)
    paths = sorted(source.glob("*.bundle")) if source.is_dir() else [source]
    best, refused = None, []
    for path in paths:
        try:
            offer = check(path, trusted)
        except OSError as err:
            refused.append((path, err.strerror or str(err)))
            continue
        except Exception as err:  # the device's UpdateError
            refused.append((path, describe(err) if hasattr(err, "key") else str(err)))
            continue
        if best is None or compare_versions(offer.version, best.version) > 0:
            best = offer
    return best, refused


class _Http(http.server.ThreadingHTTPServer):
    daemon_threads = True
    owner = None

    def handle_error(self, request, client_address):
        # A device that goes away mid-transfer (power cut, reset, Wi-Fi lost) is no error of the
        # server's: one line in its log, not a traceback; it resumes from what it kept.
        err = sys.exc_info()[1]
        if isinstance(err, (ConnectionError, TimeoutError)):
            if self.owner is not None:
                self.owner.log(say("sv_lost", client_address[0], err.__class__.__name__))
            return
        super().handle_error(request, client_address)


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # kept-alive: a device asks for many ranges on one connection
    server_version = "tafel-serve-update"

    def setup(self):
        super().setup()
        self.server.owner.connections.add(self.connection)

    def finish(self):
        self.server.owner.connections.discard(self.connection)
        super().finish()

    def do_GET(self):
        owner = self.server.owner
        offer = owner.offer
        if self.path == "/tafel/offer":
            self._send(200, json.dumps(offer.describe()).encode(), "application/json")
            owner.log(say("sv_asks", self.client_address[0], offer.version, len(offer.data)))
        elif self.path == "/":
            self._send(200, ("Tafel update server: %s (%s bytes)\n" % (offer.version, len(offer.data))).encode())
        elif self.path == offer.url:
            self._bundle(offer)
        else:
            self._send(404, b"not here\n")
            owner.log(say("sv_not_here", self.client_address[0], self.path))

    def _bundle(self, offer):
        data = offer.data
        first, last = 0, len(data) - 1
        want = self.headers.get("Range")
        if want is not None:
            span = _range(want, len(data))
            if span is None:
                self._send(416, b"", extra={"Content-Range": "bytes */%d" % len(data)})
                self.server.owner.log(say("sv_range_refused", self.client_address[0], want))
                return
            first, last = span
        body = data[first:last + 1]
        extra = {"Content-Range": "bytes %d-%d/%d" % (first, last, len(data))} if want is not None else {}
        self._send(206 if want is not None else 200, body, "application/octet-stream", extra)
        self.server.owner.served.append((first, last))
        self.server.owner.log(say("sv_sent", self.client_address[0], offer.version, first, last,
                                  grouped(len(body))))

    def _send(self, status, body, kind="text/plain", extra=None):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, fmt, *args):
        pass  # each request is logged once, in words, above


def _range(text, size):
    """(first, last) of a single "bytes=A-B" / "bytes=A-" / "bytes=-N" within size, else None."""
    unit, _, spec = text.partition("=")
    if unit.strip() != "bytes" or "," in spec:
        return None
    a, _, b = spec.strip().partition("-")
    try:
        if not a:
            first, last = max(0, size - int(b)), size - 1
        else:
            first, last = int(a), min(int(b), size - 1) if b else size - 1
    except ValueError:
        return None
    return (first, last) if 0 <= first <= last < size else None


class Server:
    """The HTTP server and the discovery responder, each in a thread; stop() ends both and every connection."""

    def __init__(self, offer, host="", port=None, discovery_port=None, log=print):
        self.offer = offer
        self.log = log
        self.host = host
        self.connections = set()
        self.served = []  # (first, last) of every bundle range sent, in order
        self.http = _Http((host, discovery.HTTP_PORT if port is None else port), _Handler)
        self.http.owner = self
        self.port = self.http.server_address[1]
        self.udp = None
        self.discovery_port = discovery.DISCOVERY_PORT if discovery_port is None else discovery_port
        if self.discovery_port:
            self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            self.udp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                self.udp.bind(("", self.discovery_port))  # broadcasts reach only sockets on every address
            except OSError as err:
                self.udp.close()
                self.udp = None
                log(say("sv_discovery_off", self.discovery_port, err.strerror or err))
        self.threads = []

    def start(self):
        self.threads = [threading.Thread(target=self.http.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)]
        if self.udp is not None:
            self.udp.settimeout(0.2)
            self.threads.append(threading.Thread(target=self._discovery, daemon=True))
        for t in self.threads:
            t.start()
        return self

    def stop(self):
        """As the laptop going away: no more answers, open connections cut."""
        self.http.shutdown()
        self.http.server_close()
        for conn in list(self.connections):
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        if self.udp is not None:
            self.udp.close()
            self.udp = None
        for t in self.threads:
            t.join(5)

    def _discovery(self):
        udp = self.udp
        while self.udp is not None:
            try:
                data, sender = udp.recvfrom(64)
            except socket.timeout:
                continue
            except OSError:
                return  # closed by stop()
            if data.strip() != discovery.ASK or not self._reachable(sender[0]):
                continue
            udp.sendto(b"TAFEL 1 %d %s" % (self.port, self.offer.version.encode()), sender)
            self.log(say("sv_searched", sender[0], self.port))

    def _reachable(self, ip):
        # A server on loopback only answers the laptop itself: others could not connect.
        return not self.host.startswith("127.") or ip.startswith("127.")

    def urls(self):
        hosts = [self.host] if self.host not in ("", "0.0.0.0") else _addresses()
        return ["http://%s:%d/" % (h, self.port) for h in hosts]


def _addresses():
    # This laptop's IPv4 addresses a device on the Wi-Fi may reach: the default route's first.
    found = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: it only picks the outgoing address
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            if info[4][0] not in found:
                found.append(info[4][0])
    except OSError:
        pass
    return [a for a in found if not a.startswith("127.")] or ["127.0.0.1"]


# ---- the command -------------------------------------------------------------------

def add_parser(commands):
    cmd = commands.add_parser("serve-update", help=say("hp_serve"), description=say("hp_serve_d"))
    cmd.add_argument("source", nargs="?", default=".", metavar=say("m_bundle_or_dir"), help=say("hp_serve_source"))
    cmd.add_argument("--host", default="", help=say("hp_serve_host"))
    cmd.add_argument("--port", type=int, default=None, help=say("hp_serve_port"))
    cmd.add_argument("--discovery-port", type=int, default=None, metavar="P", help=say("hp_serve_discovery"))
    keys.add_trust_arguments(cmd)
    cmd.set_defaults(run=run_serve)


def run_serve(args):
    try:
        trusted = keys.trusted_keys(args)
    except keys.KeyProblem as err:
        print("tafel: %s" % err, file=sys.stderr)
        return Exit.USAGE
    offer, refused = pick(args.source, trusted)
    for path, why in refused:
        print(say("sv_not_offered", path, why), file=sys.stderr)
    if offer is None:
        print("tafel: %s" % say("sv_no_bundle", args.source), file=sys.stderr)
        return Exit.USAGE
    try:
        server = Server(offer, args.host, args.port, args.discovery_port, log=_stamped).start()
    except OSError as err:
        print("tafel: %s" % say("sv_cannot_listen", args.port, err.strerror or err), file=sys.stderr)
        return Exit.USAGE
    print(say("sv_offering", offer.version, offer.path.name, grouped(len(offer.data)), offer.id))
    for url in server.urls():
        print(say("sv_serving", url))
    print(say("sv_on_device", say("sv_on_udp", server.discovery_port) if server.udp is not None
                              else say("sv_type_address")))
    sys.stdout.flush()
    _stop_on_signals()
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    server.stop()
    print(say("sv_stopped"))
    return Exit.OK


def _stop_on_signals():
    # Ctrl-C stops the server even where it was started with SIGINT ignored (a background job of a
    # script, which Python then leaves ignored), and so does a plain kill (SIGTERM).
    import signal

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)


def _stamped(text):
    print("%s %s" % (time.strftime("%H:%M:%S"), text), flush=True)
