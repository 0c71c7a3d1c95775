# A tiny update server for the fetch tests on the unix port: real loopback TCP, a thread, Range requests.
#
#   srv = Httpd(offer_dict, bundle_bytes)   # listens on 127.0.0.1:srv.port
#   srv.cut_after = 300                     # dies (closes everything) after 300 body bytes of the bundle
#   srv.ranges                              # [(first, last)] asked for, in order
#   srv.stop()
# It answers as `tafel serve-update` does (host_tools/update/serve.py) but only
# what the device asks for; the host suite runs the real one end to end.
import _thread
import json
import socket

BASE_PORT = 47310


class Httpd:
    def __init__(self, offer, data, offer_status=200, offer_body=None):
        self.offer = offer
        self.data = data
        self.offer_status = offer_status
        self.offer_body = offer_body if offer_body is not None else json.dumps(offer).encode()
        self.ranges = []
        self.sent = 0  # bundle body bytes written
        self.cut_after = None
        self.running = True
        self.done = False
        self.sock = s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        for port in range(BASE_PORT, BASE_PORT + 200):  # the unix port's sockets cannot say which port 0 got
            try:
                s.bind(socket.getaddrinfo("127.0.0.1", port)[0][-1])
                break
            except OSError:
                continue
        self.port = port
        s.listen(2)
        s.settimeout(0.05)
        _thread.start_new_thread(self._serve, ())

    def stop(self):
        self.running = False
        while not self.done:
            pass

    def _serve(self):
        try:
            while self.running:
                try:
                    conn, _ = self.sock.accept()
                except OSError:
                    continue
                try:
                    conn.settimeout(2)
                    self._talk(conn)
                except OSError:
                    pass
                conn.close()
        finally:
            self.sock.close()
            self.done = True

    def _talk(self, conn):
        while self.running:
            line = conn.readline()
            if not line:
                return
            first = last = None
            while True:
                h = conn.readline()
                if h in (b"\r\n", b""):
                    break
                if h.lower().startswith(b"range: bytes="):
                    a, b = h[13:].strip().split(b"-")
                    first, last = int(a), int(b)
            path = line.split()[1].decode()
            if path == "/tafel/offer":
                self._answer(conn, self.offer_status, self.offer_body)
            elif path == self.offer["bundle"] and first is not None:
                self.ranges.append((first, last))
                body = self.data[first:last + 1]
                if self.cut_after is not None and self.sent + len(body) > self.cut_after:
                    body = body[:self.cut_after - self.sent]
                    self.sent += len(body)
                    self._answer(conn, 206, body, last - first + 1)
                    self.running = False  # the laptop went away mid-answer
                    return
                self.sent += len(body)
                self._answer(conn, 206, body)
            else:
                self._answer(conn, 404, b"")

    def _answer(self, conn, status, body, length=None):
        conn.write(b"HTTP/1.1 %d X\r\nContent-Length: %d\r\n\r\n" % (status, len(body) if length is None else length))
        conn.write(body)
