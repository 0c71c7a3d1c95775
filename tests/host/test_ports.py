# Port selection: --port, TAFEL_PORT, and auto-detection by USB ids confirmed by the handshake (all faked).
from types import SimpleNamespace

import pytest

from tafel_host.link import ports
from tafel_host.link.ports import PortError


def port(device, vid=None, pid=None):
    return SimpleNamespace(device=device, vid=vid, pid=pid)


class FakeLink:
    def __init__(self, device_id):
        self.hello = {"device": device_id}
        self.closed = False

    def close(self):
        self.closed = True


def prober(answers):
    """probe(port): a FakeLink for ports in `answers` (name -> device id); an exception instance raises."""
    tried = []

    def probe(name):
        tried.append(name)
        got = answers.get(name, RuntimeError("no answer to the handshake"))
        if isinstance(got, Exception):
            raise got
        return FakeLink(got)

    probe.tried = tried
    return probe


LISTING = [
    port("/dev/ttyS0"),  # a motherboard UART: never tried
    port("/dev/ttyUSB0", 0x10C4, 0xEA60),
    port("/dev/ttyACM0", 0x303A, 0x1001),
    port("/dev/ttyUSB1", 0x1A86, 0x7523),
    port("/dev/ttyUSB2", 0x0403, 0x6015),
    port("/dev/ttyUSB3", 0x0403, 0x6010),  # an FTDI dual-port JTAG adapter: not ours
    port("/dev/ttyUSB4", 0x1A86, 0x55D4),
    port("/dev/ttyUSB5", 0x0403, 0x6001),
]


def test_the_known_bridges_are_candidates_and_nothing_else():
    assert ports.candidates(LISTING) == [
        ("/dev/ttyACM0", "Espressif native USB (ESP32-S2/S3/C3/C6)"),
        ("/dev/ttyUSB0", "Silicon Labs CP210x"),
        ("/dev/ttyUSB1", "WCH CH340"),
        ("/dev/ttyUSB2", "FTDI FT-X"),
        ("/dev/ttyUSB4", "WCH CH9102"),
        ("/dev/ttyUSB5", "FTDI FT232R"),
    ]


def test_port_option_wins_over_environment_and_detection():
    probe = prober({"loop://": "dev-a"})
    got, link = ports.find(probe, port="loop://", env={"TAFEL_PORT": "/dev/ttyUSB9"}, list_ports=lambda: LISTING)
    assert got == "loop://" and link.hello["device"] == "dev-a" and probe.tried == ["loop://"]


def test_environment_variable_is_used_without_detection():
    probe = prober({"socket://localhost:7777": "dev-b"})
    got, _ = ports.find(probe, env={"TAFEL_PORT": " socket://localhost:7777 "}, list_ports=lambda: 1 / 0)
    assert got == "socket://localhost:7777"


def test_a_named_port_that_cannot_be_opened_says_why_with_the_platform_hint():
    probe = prober({"/dev/ttyUSB0": PermissionError(13, "Permission denied: '/dev/ttyUSB0'")})
    with pytest.raises(PortError) as err:
        ports.find(probe, port="/dev/ttyUSB0", env={}, platform="linux")
    text = str(err.value)
    assert err.value.code == 3
    assert "cannot open /dev/ttyUSB0 (from --port)" in text and "no permission" in text
    assert "dialout" in text and "ModemManager" in text


def test_a_named_port_without_a_tafel_says_so():
    with pytest.raises(PortError) as err:
        ports.find(prober({}), env={"TAFEL_PORT": "/dev/cu.usbserial-1"}, platform="darwin")
    assert "no Tafel answered on /dev/cu.usbserial-1 (from TAFEL_PORT)" in str(err.value)
    assert err.value.code == 3


def test_the_one_answering_candidate_is_chosen():
    probe = prober({"/dev/ttyUSB1": "dev-c"})
    got, link = ports.find(probe, env={}, list_ports=lambda: LISTING)
    assert got == "/dev/ttyUSB1" and link.hello["device"] == "dev-c"
    assert "/dev/ttyS0" not in probe.tried and "/dev/ttyUSB3" not in probe.tried
    assert len(probe.tried) == 6


def test_several_answering_devices_are_all_closed_and_named():
    probe = prober({"/dev/ttyUSB0": "dev-a", "/dev/ttyACM0": "dev-b"})
    links = []
    real = probe

    def keep(name):
        link = real(name)
        links.append(link)
        return link

    with pytest.raises(PortError) as err:
        ports.find(keep, env={}, list_ports=lambda: LISTING)
    assert err.value.code == 2
    assert "/dev/ttyACM0 (device dev-b)" in str(err.value) and "/dev/ttyUSB0 (device dev-a)" in str(err.value)
    assert "--port" in str(err.value) and all(link.closed for link in links)


def test_no_candidate_lists_the_other_ports_and_hints():
    with pytest.raises(PortError) as err:
        ports.find(prober({}), env={}, list_ports=lambda: [port("COM1"), port("COM7", 0x2341, 0x43)],
                   platform="win32")
    text = str(err.value)
    assert err.value.code == 3 and "no USB serial port of an ESP32 bridge" in text
    assert "serial ports seen: COM1, COM7" in text and "Device Manager" in text


def test_candidates_that_do_not_answer_are_each_reported():
    listing = [port("/dev/cu.usbserial-0001", 0x10C4, 0xEA60), port("/dev/cu.usbmodem1101", 0x303A, 0x4001)]
    probe = prober({"/dev/cu.usbserial-0001": OSError(16, "Resource busy")})
    with pytest.raises(PortError) as err:
        ports.find(probe, env={}, list_ports=lambda: listing, platform="darwin")
    text = str(err.value)
    assert "/dev/cu.usbserial-0001 (Silicon Labs CP210x): [Errno 16] Resource busy" in text
    assert "/dev/cu.usbmodem1101" in text and "no answer to the handshake" in text
    assert "/dev/cu.*" in text and err.value.code == 3


def test_every_platform_has_a_hint():
    assert "dialout" in ports.hints("linux")
    assert "cu." in ports.hints("darwin")
    assert "COM" in ports.hints("win32")
    assert "--port" in ports.hints("sunos5")


def test_real_list_ports_entries_work():
    from serial.tools.list_ports_common import ListPortInfo

    info = ListPortInfo("/dev/ttyUSB0", skip_link_detection=True)
    info.vid, info.pid = 0x1A86, 0x7523
    assert ports.bridge(info) == "WCH CH340"
    assert ports.bridge(ListPortInfo("/dev/ttyS0", skip_link_detection=True)) is None
