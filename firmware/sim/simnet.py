# The simulator's Wi-Fi (never deployed): network.WLAN's station and the sockets, over the laptop's own network.
#
# What board.wlan() gives the firmware in the simulator, in place of
# network.WLAN(network.STA_IF). Joining succeeds at once for a network in
# `networks` with its password (None: any name and password, as `tafel sim`
# does); sockets are the unix port's real ones, and the device's address is
# the loopback's, so `tafel serve-update` on this laptop is reached as on a
# home network (its broadcast, 127.255.255.255, reaches a server on 0.0.0.0).
#
# While a station exists this module is also the firmware's `socket` (its
# names below: update/fetch.py and update/net.py get them). One module for
# both, with the station's states as const(): on the chip the station and the
# sockets are C, and every name or module here is heap the chip does not spend.
#
# The reference: on the device build the simulator's chip (run.py, simchip.WLAN())
# uses the same in C, firmware/port/unix/tafel/simnet.c, which takes nothing of
# the chip's heap but a socket's object; tests/host/test_simnet_c.py holds the
# two to the same behaviour. This module is what the PyPI unix port (no C) and
# the in-process firmware tests (sim/simmachine.py) use. A change here is a
# change there too.
#
# What ESP-IDF takes for the network on the chip comes out of its heap, which
# the device build models (firmware/port/README.md, tafelchip.IDF_COSTS): the
# station's start takes wifi_init and wifi_start, a connection wifi_connect,
# each socket socket_tcp or socket_udp and a TCP connection http_rx, and each
# gives them back when it ends. What ESP-IDF cannot have, the firmware gets as
# on the chip: an OSError (ENOMEM). The heap may then grow less, or not at
# all. Elsewhere (the PyPI unix port) nothing is counted.
import socket as _real
import sys

from micropython import const

try:
    import tafelchip as _idf  # the device build's model of ESP-IDF's heap
except ImportError:
    _idf = None

_STAT_IDLE = const(1000)
_STAT_CONNECTING = const(1001)
_STAT_GOT_IP = const(1010)
_STAT_NO_AP_FOUND = const(201)  # ESP-IDF's reasons, as the ESP32 port's status() reports them
_STAT_WRONG_PASSWORD = const(202)



def __getattr__(name):
    # As the firmware's `socket`: the unix port's names (AF_INET, getaddrinfo, ..., and sockaddr,
    # the unix port's only: update/net.py reads a sender's address with it), looked up when asked
    # rather than each held in this module's globals.
    return getattr(_real, name)


def take(event):
    """ESP-IDF's allocations for `event` (IDF_COSTS), as handles to give back; OSError(ENOMEM) when
    its heap cannot have them (what was taken goes back)."""
    handles = []
    for name, size, count in _idf.IDF_COSTS if _idf is not None else ():
        if name == event:
            for _ in range(count):
                h = _idf.idf_alloc(size)
                if h is None:
                    give(handles)
                    raise OSError(12)  # ENOMEM: ESP-IDF's malloc failed
                handles.append(h)
    return handles


def give(handles):
    while handles:  # only ever filled where _idf is
        _idf.idf_free(handles.pop())


class SimWLAN:
    def __init__(self, networks=None):
        """networks: {ssid: password} in range, or None for any."""
        self._init = take("wifi_init")  # network.WLAN(): esp_wifi_init
        self._start = self._link = ()  # ESP-IDF's handles while started, connected (take)
        self.networks = networks
        self._active = False
        self._status = _STAT_IDLE
        self._polls = 0
        if "socket" not in sys.modules:  # the firmware's sockets, counted (below)
            sys.modules["socket"] = sys.modules[__name__]

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
            self._status = _STAT_IDLE

    def connect(self, ssid, key=None):
        if not self._active:
            raise OSError("WLAN not active")
        nets = self.networks
        if nets is not None and ssid not in nets:
            self._status = _STAT_NO_AP_FOUND
        elif nets is not None and nets[ssid] != (key or ""):
            self._status = _STAT_WRONG_PASSWORD
        else:
            if not self._link:
                self._link = take("wifi_connect")
            self._status = _STAT_CONNECTING
            self._polls = 2  # a couple of polls "connecting" first, as a real join takes a while

    def disconnect(self):
        give(self._link)
        self._status = _STAT_IDLE

    def status(self, param=None):
        if self._status == _STAT_CONNECTING:
            self._polls -= 1
            if self._polls <= 0:
                self._status = _STAT_GOT_IP
        return self._status

    def isconnected(self):
        return self._active and self.status() == _STAT_GOT_IP

    def ifconfig(self, config=None):
        return ("127.0.0.1", "255.0.0.0", "127.0.0.1", "127.0.0.1")


class socket(_real.socket):
    """The real socket, taking its share of ESP-IDF's heap when made (socket_tcp or socket_udp)
    and a connected one its receive buffers (http_rx), given back when closed. Every other method
    is the unix port's own, in C: it costs the chip's heap nothing (on the ESP32 it is C too)."""

    def __init__(self, af=_real.AF_INET, kind=_real.SOCK_STREAM, proto=0):
        self._idf = take("socket_tcp" if kind == _real.SOCK_STREAM else "socket_udp")
        self._rx = None
        try:
            super().__init__(af, kind, proto)
        except OSError:
            give(self._idf)
            raise

    def connect(self, addr):
        try:
            super().connect(addr)
        except OSError as err:
            from errno import EINPROGRESS  # a built-in module: nothing of the heap

            if err.args[0] != EINPROGRESS:
                raise
            # a non-blocking connect (club/mqtt.py) goes on in the background: a connection all the same
            if self._rx is None:
                self._rx = take("http_rx")
            raise
        if self._rx is None:
            self._rx = take("http_rx")

    def close(self):
        if self._rx is not None:
            give(self._rx)
        give(self._idf)  # emptied: a second close gives nothing back twice
        super().close()
