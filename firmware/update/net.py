# Wi-Fi for updates: joining the network from settings, and finding `tafel serve-update` by a UDP broadcast.
#
# `wlan` is the station interface the board gives (board.wlan: network.WLAN
# on the ESP32, the simulator's stand-in: simchip's in C on the device build,
# sim/simnet.py's on the PyPI port); all have
# active(), connect(), isconnected(), status() and ifconfig(). Waiting is done
# in generators that yield while nothing has happened yet, so the UI keeps
# drawing; timeouts count on the injected clock (ticks_ms()), never sleep.
# Refusals (tafel/bundle/errors.py's UpdateError):
#   no_network  detail "no_wifi" (no settings), "no_ap" (not in range),
#               "password" (refused), "timeout"
#   no_server   no server answered the broadcast; detail None
# Discovery, one datagram each way (tafel/bundle/discovery.py has the ports):
#   device -> broadcast:DISCOVERY_PORT   b"TAFEL? 1"
#   server -> device                     b"TAFEL 1 <http port> <version>"
from micropython import const

from tafel.bundle.discovery import ASK, DISCOVERY_PORT, HTTP_PORT  # noqa: F401  (this module's names too)
from tafel.bundle.errors import UpdateError

_JOIN_MS = const(20000)
_FIND_MS = const(3000)
_ASK_MS = const(500)  # the broadcast goes again this often while nobody answers
# network.WLAN.status() after a failed connect, as ESP-IDF's reasons (the ESP32 port returns them).
_NO_AP = const(201)
_WRONG_PASSWORD = const(202)


def join(wlan, ssid, key, clock, timeout_ms=_JOIN_MS):
    """Generator: join `ssid`; yields while connecting, returns the device's IP address."""
    if not ssid:
        raise UpdateError("no_network", "no_wifi")
    wlan.active(True)
    if not wlan.isconnected():
        wlan.connect(ssid, key)
        start = clock.ticks_ms()
        while not wlan.isconnected():
            status = wlan.status()
            if status == _WRONG_PASSWORD:
                raise UpdateError("no_network", "password")
            if status == _NO_AP:
                raise UpdateError("no_network", "no_ap")
            if clock.ticks_ms() - start >= timeout_ms:
                raise UpdateError("no_network", "timeout")
            yield
    return wlan.ifconfig()[0]


def broadcast(ip, mask):
    """The subnet's broadcast address: '192.168.1.255' for 192.168.1.23/255.255.255.0."""
    a = ip.split(".")
    m = mask.split(".")
    return ".".join(str(int(a[i]) | (255 & ~int(m[i]))) for i in range(4))


def find(wlan, clock, port=DISCOVERY_PORT, timeout_ms=_FIND_MS):
    """Generator: ask the subnet for an update server; returns (host, http port, version offered)."""
    import socket

    ip, mask = wlan.ifconfig()[:2]
    to = socket.getaddrinfo(broadcast(ip, mask), port)[0][-1]
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        s.setblocking(False)
        start = clock.ticks_ms()
        asked = None
        while True:
            now = clock.ticks_ms()
            if now - start >= timeout_ms:
                raise UpdateError("no_server")
            if asked is None or now - asked >= _ASK_MS:
                s.sendto(ASK, to)
                asked = now
            try:
                data, addr = s.recvfrom(64)
            except OSError:  # nothing yet (EAGAIN)
                yield
                continue
            words = data.split()
            if len(words) == 4 and words[0] == b"TAFEL" and words[1] == b"1":
                try:
                    return _host(addr), int(words[2]), words[3].decode()
                except (ValueError, UnicodeError):
                    pass  # not ours: keep listening
    finally:
        s.close()


def parse_server(text):
    """(host, port) of a typed server address 'host[:port]', or None if blank."""
    text = (text or "").strip()
    if not text:
        return None
    host, _, port = text.partition(":")
    try:
        return host, int(port) if port else HTTP_PORT
    except ValueError:
        raise UpdateError("no_server", text)


def _host(addr):
    # The sender's address: (ip, port) on the ESP32, raw sockaddr bytes on the unix port.
    if isinstance(addr, tuple):
        return addr[0]
    import socket

    return ".".join(str(b) for b in socket.sockaddr(addr)[1])
