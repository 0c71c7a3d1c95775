# The simulated USB serial beside the link: Ctrl-C outside a session stops the firmware and a
# REPL answers as MicroPython's does (friendly and raw, what mpremote drives); Ctrl-D restarts it.
import os

from linkhost import FakeSerial, Host
from sim.device import Device
from sim.flashdev import FlashDev
from sim.simusb import SimUSB
from tafel import wire
from uisim import PROFILE


def device(session_file=None):
    fake = FakeSerial()
    usb = SimUSB(fake, session_file=session_file)
    dev = Device(PROFILE, flash=FlashDev(), serial=usb, device_id="sim-test")
    usb.device = dev
    dev.errors = []
    dev.app.log = dev.errors.append
    return dev, fake


def talk(dev, fake, data, ms=50):
    fake.rx.extend(data)
    dev.advance(ms)
    out = b"".join(fake.lines) + fake.partial
    fake.lines = []
    fake.partial = b""
    return out


def test_ctrl_c_stops_the_firmware_and_the_raw_repl_runs_code_on_the_flash():
    dev, fake = device()
    assert talk(dev, fake, b"\r\x03").endswith(b"KeyboardInterrupt: \r\n" + b"MicroPython on the Tafel simulator\r\n"
                                             b"Type \"help()\" for more information.\r\n>>> ")
    before = dev.screen()
    dev.play("D #")  # the firmware is stopped: keys do nothing
    assert dev.screen() == before
    assert talk(dev, fake, b"\r\x01").endswith(b"raw REPL; CTRL-B to exit\r\n>")
    assert talk(dev, fake, b"\x05A\x01") == b"R\x00"  # raw-paste declined: mpremote falls back
    got = talk(dev, fake, b"import os\nfor f in os.ilistdir(''):\n print(repr(f), end=',')\x04")
    assert got == b"OK('data', 16384, 0, 0),('twin', 16384, 0, 0),\x04\x04>"
    got = talk(dev, fake, b"1/0\x04")
    assert got.startswith(b"OK\x04Traceback") and got.endswith(b"ZeroDivisionError: divide by zero\r\n\x04>")
    assert talk(dev, fake, b"\x04") == b"OK\r\nMPY: soft reboot\r\nraw REPL; CTRL-B to exit\r\n>"
    assert dev.screen() == before  # a soft reboot in the raw REPL does not run the app
    assert talk(dev, fake, b"\x02").endswith(b">>> ")
    assert talk(dev, fake, b"6*7\r") == b"6*7\r\n42\r\n>>> "
    assert talk(dev, fake, b"\x04", 200) == b"\r\nMPY: soft reboot\r\n"
    dev.play("D")  # running again
    assert dev.screen() != before
    host = Host(dev)
    assert host.handshake()["id"] == "sim-test"
    assert dev.errors == []


def test_in_a_session_ctrl_c_is_only_a_bad_byte():
    dev, fake = device()
    host = Host(dev)
    host.handshake()
    host.send(b"\x03\x03\n")
    host.step(100)
    assert wire.parse_info(host.ok(wire.INFO))["games"] == 0
    assert dev.link.active
    host.ok(wire.BYE)
    cwd = os.getcwd()
    assert talk(dev, fake, b"\x03").endswith(b">>> ")  # the session is over: Ctrl-C interrupts again
    assert os.getcwd() == "/flash"  # the REPL's code sees the flash
    talk(dev, fake, b"\x04", 100)
    assert os.getcwd() == cwd and dev.serial.repl is None


def test_the_launcher_is_told_when_a_session_begins_and_ends():
    # sim_serial.py drops what overflows the 260-byte ring only while the app reads the port.
    path = "/tmp/tafel-test-session-%08x" % int.from_bytes(os.urandom(4), "big")

    def flag():
        with open(path, "rb") as f:
            return f.read()

    try:
        dev, fake = device(path)
        assert flag() == b"0"  # a device that starts has no session
        host = Host(dev)
        host.handshake()
        assert flag() == b"1"
        host.ok(wire.BYE)
        assert flag() == b"0"
    finally:
        os.remove(path)
