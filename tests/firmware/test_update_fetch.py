# Pulling an update over Wi-Fi (firmware/update/net.py, fetch.py) on the unix port: joining the
# simulator's network, finding a server by broadcast, and staging a signed bundle over real
# loopback TCP from a small threaded server (httpd.py): whole, resumed after the server died,
# with files the device has already left out, and tampered or foreign answers refused.
import hashlib
import socket
from binascii import hexlify

import pytest
from crypto.test_bundle_read import PUBLIC

import bootsel
from appbundle import APP, MAIN
from httpd import Httpd
from sim.flashdev import FlashDev
from sim.simnet import SimWLAN
from store.fsys import Disk
from store.mount import mount
from tafel.bundle import manifest as fmt
from tafel.bundle.errors import UpdateError
from update import fetch, net
from update.stage import Stager

HEAD = fmt.HEADER_SIZE + fmt.unpack_header(APP[:fmt.HEADER_SIZE])[0] + fmt.SIGNATURE_SIZE
_M = fmt.parse(APP[fmt.HEADER_SIZE:HEAD - fmt.SIGNATURE_SIZE], APP[12:20], HEAD)
WORDS_AT = _M.file("lib/tafel/words.txt").offset  # the deflated body
MAIN_BODY = _M.file("main.py")  # main.py's body: offset, stored


def station(networks=None):
    """The chip's one Wi-Fi station (network.WLAN is a singleton on the ESP32: esp_wifi_init runs
    once a boot), as a test needs it: the networks in range set, the radio off."""
    global _STATION
    if _STATION is None:
        _STATION = SimWLAN()  # on the device build it takes ESP-IDF's memory for the driver once
    _STATION.active(False)
    _STATION.networks = networks
    return _STATION


_STATION = None


class Clock:
    def __init__(self):
        self.ms = 0

    def ticks_ms(self):
        return self.ms


def offer_of(data):
    head = fmt.HEADER_SIZE + fmt.unpack_header(data[:fmt.HEADER_SIZE])[0] + fmt.SIGNATURE_SIZE
    bid = hexlify(hashlib.sha256(data[:head]).digest()[:8]).decode()
    return {"format": "tafel-offer", "version": 1, "app": "1.2.3", "id": bid, "size": len(data), "head": head,
            "bundle": "/tafel/bundle/" + bid}


def stager(vol=None):
    if vol is None:
        vol, _ = mount(FlashDev())
    return Stager(vol, [PUBLIC], running_version="1.0.0", boot_version=1, mpy=None)


def run(gen, clock=None):
    """Drive a generator to its end (a step per yield, as the UI's tick does); its value and the yields."""
    seen = []
    try:
        while True:
            seen.append(next(gen))
            if clock is not None:
                clock.ms += 10
    except StopIteration as stop:
        return stop.value, seen


def fetch_all(st, srv, chunk=64):
    http = fetch.Http("127.0.0.1", srv.port, timeout_s=2)
    try:
        offer = fetch.get_offer(http)
        return run(fetch.steps(st, http, offer, chunk))[1]
    finally:
        http.close()


def installed(st, path):
    f = st.disk.open_existing("app/%s/%s" % (bootsel.read(st.fs)["slot"], path))
    try:
        return f.read()
    finally:
        f.close()


# ---- the network --------------------------------------------------------------------

def test_the_broadcast_address_is_the_subnets():
    assert net.broadcast("192.168.1.23", "255.255.255.0") == "192.168.1.255"
    assert net.broadcast("10.1.2.3", "255.255.0.0") == "10.1.255.255"
    assert net.broadcast("127.0.0.1", "255.0.0.0") == "127.255.255.255"


def test_a_typed_server_address_takes_the_default_port():
    assert net.parse_server("192.168.1.5") == ("192.168.1.5", net.HTTP_PORT)
    assert net.parse_server(" 10.0.0.2:8123 ") == ("10.0.0.2", 8123)
    assert net.parse_server("") is None
    with pytest.raises(UpdateError) as info:
        net.parse_server("10.0.0.2:x")
    assert info.value.key == "no_server"


def test_joining_waits_for_the_network_and_says_why_it_failed():
    wlan = station({"Tafelnetz": "geheim42"})
    ip, seen = run(net.join(wlan, "Tafelnetz", "geheim42", Clock()))
    assert ip == "127.0.0.1" and len(seen) >= 1 and wlan.isconnected()
    for ssid, key, why in (("Tafelnetz", "falsch", "password"), ("Nachbar", "x", "no_ap"), ("", "", "no_wifi")):
        with pytest.raises(UpdateError) as info:
            run(net.join(station({"Tafelnetz": "geheim42"}), ssid, key, Clock()))
        assert (info.value.key, info.value.detail) == ("no_network", why)


def test_a_join_that_never_completes_times_out_on_the_clock():
    stuck = station()
    stuck.isconnected = lambda: False  # a join that never completes
    clock = Clock()
    try:
        with pytest.raises(UpdateError) as info:
            run(net.join(stuck, "Tafelnetz", "", clock, timeout_ms=5000), clock)
    finally:
        del stuck.isconnected
    assert (info.value.key, info.value.detail) == ("no_network", "timeout")
    assert 5000 <= clock.ms <= 5020


def test_the_server_is_found_by_a_broadcast_on_loopback():
    # The server's side, stepped between the device's polls (one thread): answer the ask.
    answer = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    port = None
    for p in range(47510, 47600):
        try:
            answer.bind(socket.getaddrinfo("0.0.0.0", p)[0][-1])
            port = p
            break
        except OSError:
            continue
    answer.setblocking(False)
    clock = Clock()
    finder = net.find(station(), clock, port)
    try:
        next(finder)  # asked, nothing back yet
        data, addr = answer.recvfrom(64)
        assert data == b"TAFEL? 1"
        answer.sendto(b"TAFEL 1 7123 0.9.0", addr)
        found, _ = run(finder, clock)
    finally:
        answer.close()
    assert found == ("127.0.0.1", 7123, "0.9.0")


def test_no_answer_to_the_broadcast_is_no_server():
    clock = Clock()
    with pytest.raises(UpdateError) as info:
        run(net.find(station(), clock, 47509, timeout_ms=300), clock)
    assert info.value.key == "no_server"


# ---- the transfer -------------------------------------------------------------------

def test_a_bundle_is_fetched_in_ranges_staged_and_switched():
    srv = Httpd(offer_of(APP), APP)
    st = stager()
    try:
        progress = fetch_all(st, srv)
    finally:
        srv.stop()
    assert st.finish() == "1.2.3"
    assert installed(st, "main.py") == MAIN
    assert srv.sent == len(APP)  # every byte once
    assert srv.ranges[0] == (0, HEAD - 1)  # the head, then each wanted body
    done, total = progress[-1]
    assert done == total == len(APP)
    assert [p[0] for p in progress] == sorted(p[0] for p in progress)


def test_a_transfer_cut_off_resumes_with_only_the_missing_bytes():
    srv = Httpd(offer_of(APP), APP)
    srv.cut_after = 200  # the laptop goes away in the middle of the head
    st = stager()
    with pytest.raises(UpdateError) as info:
        fetch_all(st, srv)
    srv.stop()
    assert info.value.key == "server_gone"
    state, have, _ = st.status()
    assert state == 1 and 0 < have <= 200  # what came whole is on flash
    again = Httpd(offer_of(APP), APP)
    st = stager(st.fs)  # as after a power cut: a new Stager on the same flash
    try:
        fetch_all(st, again)
    finally:
        again.stop()
    assert again.ranges[0] == (have, HEAD - 1)
    assert again.sent == len(APP) - have
    assert st.finish() == "1.2.3"


def test_files_the_device_has_already_are_not_fetched():
    vol, _ = mount(FlashDev())
    Disk(vol, "").write_new("main.py", MAIN)  # the running (flat) install has it
    srv = Httpd(offer_of(APP), APP)
    st = stager(vol)
    try:
        fetch_all(st, srv)
    finally:
        srv.stop()
    main_at, main_end = MAIN_BODY.offset, MAIN_BODY.offset + MAIN_BODY.stored
    assert all(last < main_at or first >= main_end for first, last in srv.ranges)
    assert srv.sent == len(APP) - MAIN_BODY.stored
    assert st.finish() == "1.2.3" and installed(st, "main.py") == MAIN


def test_a_tampered_body_is_refused_and_nothing_switches():
    bad = bytearray(APP)
    bad[WORDS_AT + 5] ^= 1
    srv = Httpd(offer_of(bytes(bad)), bytes(bad))
    st = stager()
    try:
        with pytest.raises(UpdateError) as info:
            fetch_all(st, srv)
    finally:
        srv.stop()
    assert info.value.key == "bad_file"
    assert bootsel.read(st.fs) is None  # still the running version


def test_a_server_that_is_not_ours_is_refused():
    for status, body, why in ((404, b"", 404), (200, b"<html>hello</html>", "offer"),
                              (200, b'{"format": "tafel-offer", "app": "1.0"}', "offer")):
        srv = Httpd(offer_of(APP), APP, status, body)
        http = fetch.Http("127.0.0.1", srv.port, timeout_s=2)
        try:
            with pytest.raises(UpdateError) as info:
                fetch.get_offer(http)
        finally:
            http.close()
            srv.stop()
        assert (info.value.key, info.value.detail) == ("bad_offer", why)


def test_nobody_listening_is_no_server():
    srv = Httpd(offer_of(APP), APP)
    srv.stop()
    with pytest.raises(UpdateError) as info:
        fetch.get_offer(fetch.Http("127.0.0.1", srv.port, timeout_s=2))
    assert info.value.key == "no_server"
