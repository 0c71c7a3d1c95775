# The simulator's Wi-Fi in C (firmware/port/unix/tafel/simnet.c: simchip.WLAN() and the counted
# sockets) against its Python reference (firmware/sim/simnet.py): the same operations, once on
# each, give the same statuses, the same errors and the same ESP-IDF heap (the model's free bytes
# and largest block after every step); and the C one takes nothing of the chip's heap.
#
# Drives the 32-bit device build (`make device-build`), which has both: simnet.c built in and the
# reference frozen (sim/). Each run is one process of the build with the script below; its sockets
# go to a listener on 127.0.0.1 the script makes with the unix port's own socket.
import ast
import os
import subprocess
from pathlib import Path

import pytest

from needs import needs

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "unix32-frozen-1.28.0" / "micropython"

pytestmark = needs(BUILD.is_file() and os.access(BUILD, os.X_OK), "the 32-bit device build", "make device-build")

# `micropython SCRIPT IMPL`: IMPL "ref" (sim/simnet.py) or "c" (simchip.WLAN). Prints its log last.
SCRIPT = r'''
import sys
import socket as plain  # before any station: the unix port's, uncounted
import tafelchip

IMPL = sys.argv[1]
log = []


def idf():
    return tafelchip.idf_info(), tafelchip.idf_heaps()  # the heaps: each block where ESP-IDF puts it


def step(what, f, *args):
    try:
        r = f(*args)
    except OSError as err:
        r = "OSError %r" % (err.args[0],)
    if not (r is None or isinstance(r, (int, str, tuple))):
        r = type(r).__name__
    log.append((what, r, idf()))


if IMPL == "ref":
    from sim.simnet import SimWLAN

    w = SimWLAN()
else:
    import simchip

    w = simchip.WLAN()
log.append(("made", idf(), w.networks))
step("connect off", w.connect, "home", "pw")
step("active?", w.active)
step("on", w.active, True)
step("on again", w.active, True)
w.networks = {"home": "pw", "open": ""}
step("unknown", w.connect, "cafe", "x")
step("status", w.status)
step("wrong key", w.connect, "home", "nope")
step("status", w.status)
step("open", w.connect, "open")
for _ in range(3):
    step("status", w.status)
step("home", w.connect, "home", "pw")
step("connected?", w.isconnected)
step("connected?", w.isconnected)
step("ifconfig", w.ifconfig)
step("disconnect", w.disconnect)
step("status", w.status)
step("home", w.connect, "home", "pw")

import socket  # after the station: the counted one

srv = plain.socket()
srv.setsockopt(plain.SOL_SOCKET, plain.SO_REUSEADDR, 1)
for port in range(41700, 41800):  # the unix port's socket has no getsockname(): the first free port
    here = plain.getaddrinfo("127.0.0.1", port)[0][-1]
    try:
        srv.bind(here)
        break
    except OSError:
        pass
srv.listen(2)
log.append(("counted", socket is not plain, socket.AF_INET == plain.AF_INET))
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
step("tcp", lambda: None)
step("connect", s.connect, here)
step("connect again", lambda: None)
conn = srv.accept()[0]
step("send", s.write, b"hello")
log.append(("received", conn.recv(5)))
step("close", s.close)
step("close again", s.close)
n = socket.socket()
n.setblocking(False)
try:
    n.connect(here)  # on the loopback this may finish at once or go on in the background
    log.append(("nonblocking", "connecting", idf()))
except OSError as err:
    log.append(("nonblocking", "connecting" if err.args[0] == 115 else err.args[0], idf()))
step("close", n.close)
r = socket.socket()
step("refused", r.connect, socket.getaddrinfo("127.0.0.1", 9)[0][-1])
step("close", r.close)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
step("udp", u.setsockopt, socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
step("close", u.close)
# ESP-IDF's heap full: what the network asks for is refused, and what was taken goes back
held = []
while True:
    h = tafelchip.idf_alloc(512)
    if h is None:
        break
    held.append(h)
step("full", lambda: None)
step("socket", socket.socket)
step("off", w.active, False)
step("on", w.active, True)
while held:
    tafelchip.idf_free(held.pop())
step("on", w.active, True)
step("home", w.connect, "home", "pw")
step("off", w.active, False)
step("status", w.status)
print(repr(log))
'''


def run(script, impl):
    done = subprocess.run([str(BUILD), "-X", "heapsize=56K", str(script), impl], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr + done.stdout
    return ast.literal_eval(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def script(tmp_path_factory):
    path = tmp_path_factory.mktemp("simnet") / "simnet_script.py"
    path.write_text(SCRIPT)
    return path


def test_the_c_station_and_sockets_do_what_the_reference_does(script):
    ref, c = run(script, "ref"), run(script, "c")
    assert c == ref
    said = {what: r for what, r, *_ in ref}
    assert said["counted"] is True and said["received"] == b"hello"
    assert said["unknown"] is None and said["refused"] == "OSError 111"
    assert said["socket"] == "OSError 12"


HEAP = r'''
import gc
import simchip


def flow():
    w = simchip.WLAN()
    w.active(True)
    w.connect("home", "pw")
    while not w.isconnected():
        pass
    import socket

    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.close()
    return socket is not None


gc.collect()
before = gc.mem_alloc()
flow()
simchip.WLAN().active(False)
gc.collect()
print(gc.mem_alloc() - before)
'''


def test_the_station_and_a_closed_socket_hold_nothing_of_the_heap():
    done = subprocess.run([str(BUILD), "-X", "heapsize=56K", "-c", HEAP], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) == 0
