# The simulator's Wi-Fi (never deployed): network.WLAN's station methods over the laptop's own network.
#
# What board.wlan() gives the firmware in the simulator, in place of
# network.WLAN(network.STA_IF). Joining succeeds at once for a network in
# `networks` with its password (None: any name and password, as `tafel sim`
# does); sockets are the unix port's real ones, and the device's address is
# the loopback's, so `tafel serve-update` on this laptop is reached as on a
# home network (its broadcast, 127.255.255.255, reaches a server on 0.0.0.0).
STAT_IDLE = 1000
STAT_CONNECTING = 1001
STAT_GOT_IP = 1010
STAT_NO_AP_FOUND = 201  # ESP-IDF's reasons, as the ESP32 port's status() reports them
STAT_WRONG_PASSWORD = 202


class SimWLAN:
    def __init__(self, networks=None):
        """networks: {ssid: password} in range, or None for any."""
        self.networks = networks
        self._active = False
        self._status = STAT_IDLE
        self._polls = 0
        self.joins = 0  # connect() calls, for tests

    def active(self, on=None):
        if on is None:
            return self._active
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
            self._status = STAT_CONNECTING
            self._polls = 2  # a couple of polls "connecting" first, as a real join takes a while

    def disconnect(self):
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
