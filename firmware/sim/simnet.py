# The simulator's Wi-Fi (never deployed): network.WLAN's station methods over the laptop's own network.
#
# What board.wlan() gives the firmware in the simulator, in place of
# network.WLAN(network.STA_IF). Joining succeeds at once for a network in
# `networks` with its password (None: any name and password, as `tafel sim`
# does); sockets are the unix port's real ones, and the device's address is
# the loopback's, so `tafel serve-update` on this laptop is reached as on a
# home network (its broadcast, 127.255.255.255, reaches a server on 0.0.0.0).
#
# What ESP-IDF takes for the network on the chip comes out of its heap, which
# the device build models (firmware/port/README.md, tafelchip.IDF_COSTS): the
# station's start takes wifi_init and wifi_start, a connection wifi_connect,
# each socket (sim/simsocket.py, installed as the firmware's `socket` while the
# station exists) socket_tcp or socket_udp and a TCP connection http_rx, and
# each gives them back when it ends. What ESP-IDF cannot have, the firmware
# gets as on the chip: an OSError (ENOMEM). The heap may then grow less, or
# not at all. Elsewhere (the PyPI unix port) nothing is counted.
import sys

try:
    from tafelchip import IDF_COSTS, idf_alloc, idf_free
except ImportError:
    IDF_COSTS = ()

STAT_IDLE = 1000
STAT_CONNECTING = 1001
STAT_GOT_IP = 1010
STAT_NO_AP_FOUND = 201  # ESP-IDF's reasons, as the ESP32 port's status() reports them
STAT_WRONG_PASSWORD = 202


def take(event):
    """ESP-IDF's allocations for `event` (IDF_COSTS), as handles to give back; OSError(ENOMEM) when
    its heap cannot have them (what was taken goes back)."""
    handles = []
    for name, size, count in IDF_COSTS:
        if name == event:
            for _ in range(count):
                h = idf_alloc(size)
                if h is None:
                    give(handles)
                    raise OSError(12)  # ENOMEM: ESP-IDF's malloc failed
                handles.append(h)
    return handles


def give(handles):
    while handles:
        idf_free(handles.pop())


class SimWLAN:
    def __init__(self, networks=None):
        """networks: {ssid: password} in range, or None for any."""
        self._init = take("wifi_init")  # network.WLAN(): esp_wifi_init
        self._start = []
        self._link = []
        self.networks = networks
        self._active = False
        self._status = STAT_IDLE
        self._polls = 0
        self.joins = 0  # connect() calls, for tests
        if "socket" not in sys.modules:  # the firmware's sockets, counted (sim/simsocket.py)
            from sim import simsocket

            sys.modules["socket"] = simsocket

    def active(self, on=None):
        if on is None:
            return self._active
        if on and not self._active:
            self._start = take("wifi_start")
        elif not on and self._active:
            give(self._link)
            give(self._start)
        self._active = bool(on)
        if not on:
            self._status = STAT_IDLE

    def connect(self, ssid, key=None):
        if not self._active:
            raise OSError("WLAN not active")
        self.joins += 1
        nets = self.networks
        if nets is not None and ssid not in nets:
            self._status = STAT_NO_AP_FOUND
        elif nets is not None and nets[ssid] != (key or ""):
            self._status = STAT_WRONG_PASSWORD
        else:
            if not self._link:
                self._link = take("wifi_connect")
            self._status = STAT_CONNECTING
            self._polls = 2  # a couple of polls "connecting" first, as a real join takes a while

    def disconnect(self):
        give(self._link)
        self._status = STAT_IDLE

    def status(self, param=None):
        if self._status == STAT_CONNECTING:
            self._polls -= 1
            if self._polls <= 0:
                self._status = STAT_GOT_IP
        return self._status

    def isconnected(self):
        return self._active and self.status() == STAT_GOT_IP

    def ifconfig(self, config=None):
        return ("127.0.0.1", "255.0.0.0", "127.0.0.1", "127.0.0.1")
