# The chip's sockets in the simulator (never deployed): the unix port's real ones, with what lwIP takes from ESP-IDF.
#
# Installed as the module `socket` by sim/simnet.py while a Wi-Fi station
# exists, so update/fetch.py and update/net.py get these. Each socket takes its
# share of the modelled ESP-IDF heap when it is made (socket_tcp or
# socket_udp) and a connected one its receive buffers (http_rx), and gives
# them back when closed (sim/simnet.py take/give). The methods are the ones
# the firmware uses, each handed on to the real socket.
import socket as _real

from sim.simnet import give, take

AF_INET = _real.AF_INET
SOCK_STREAM = _real.SOCK_STREAM
SOCK_DGRAM = _real.SOCK_DGRAM
SOL_SOCKET = _real.SOL_SOCKET
SO_BROADCAST = _real.SO_BROADCAST
SO_REUSEADDR = _real.SO_REUSEADDR
getaddrinfo = _real.getaddrinfo
sockaddr = _real.sockaddr


class socket:
    def __init__(self, af=AF_INET, kind=SOCK_STREAM, proto=0):
        self._idf = take("socket_tcp" if kind == SOCK_STREAM else "socket_udp")
        self._rx = None
        try:
            self._s = _real.socket(af, kind, proto)
        except OSError:
            give(self._idf)
            raise

    def connect(self, addr):
        self._s.connect(addr)
        if self._rx is None:
            self._rx = take("http_rx")

    def close(self):
        if self._rx is not None:
            give(self._rx)
        give(self._idf)
        self._s.close()

    def settimeout(self, t):
        self._s.settimeout(t)

    def setblocking(self, flag):
        self._s.setblocking(flag)

    def setsockopt(self, level, opt, value):
        self._s.setsockopt(level, opt, value)

    def send(self, data):
        return self._s.send(data)

    def sendto(self, data, addr):
        return self._s.sendto(data, addr)

    def recvfrom(self, n):
        return self._s.recvfrom(n)

    def readline(self):
        return self._s.readline()

    def readinto(self, buf):
        return self._s.readinto(buf)

    def write(self, data):
        return self._s.write(data)
