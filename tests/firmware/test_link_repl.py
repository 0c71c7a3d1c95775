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
    # host_tools/sim/serial.py drops what overflows the 260-byte ring only while the app reads the port.
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


def test_garbage_before_during_and_after_a_session_never_stops_the_simulator():
    # issue 15: b"\x03\x01\xff\x04" raised UnicodeError out of the REPL and ended `tafel sim`.
    dev, fake = device()
    noise = bytes(range(256)).replace(b"\x03", b"").replace(b"\x04", b"").replace(b"\n", b"")
    assert talk(dev, fake, noise * 4) == b""  # before a session: the app ignores what is no line of its own
    host = Host(dev)
    host.handshake()
    host.send(b"\x03\x01\xff\x04" + noise + b"\n")  # during one: bad bytes, a garbage line
    host.step(100)
    assert dev.serial.repl is None and dev.link.active
    assert wire.parse_info(host.ok(wire.INFO))["games"] == 0
    host.ok(wire.BYE)
    got = talk(dev, fake, b"\x03\x01\xff\x04")  # after it: the REPL runs bytes that are no text
    assert b"OK\x04Traceback (most recent call last):\r\n" in got  # what MicroPython makes of it
    assert got.endswith(b"NameError: name '\xff' isn't defined\r\n\x04>"), got
    got = talk(dev, fake, b"raise SystemExit\x04")  # sys.exit() in the raw REPL: it stays there, reset
    assert got == b"OK\x04\x04>"
    got = talk(dev, fake, b"\x02" + noise + b"\r")  # at the friendly prompt: an error and the prompt again
    assert b"Error" in got and got.endswith(b"\r\n>>> "), got
    assert talk(dev, fake, b"raise KeyboardInterrupt\r").endswith(b"KeyboardInterrupt: \r\n>>> ")
    assert talk(dev, fake, b"import sys\rsys.exit()\r", 200).endswith(b"MPY: soft reboot\r\n")
    assert dev.serial.repl is None  # the soft reboot MicroPython's REPL does: the app runs again
    assert Host(dev).handshake()["id"] == "sim-test"
    assert dev.errors == []
