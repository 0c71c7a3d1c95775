# mpremote still works while the app serves the link on the REPL's own serial, as on the device.
#
# The simulator's port emulates a REPL beside the link (firmware/sim/simusb.py,
# tested in test_sim_serial.py); this test uses MicroPython's own REPL and
# keyboard interrupt instead, as on the device: the firmware (the simulator's
# Device, real link) runs in a unix-port process whose stdin and stdout are a
# terminal, with the keyboard interrupt on outside a session (a real SIGINT
# from the terminal), and `micropython -i` drops to the REPL when the app is
# interrupted, like the device's main.py. The host reaches that terminal
# through a second pseudo-terminal (two threads copy the bytes).
# `tafel export` works while the app runs; `mpremote ... fs ls` interrupts the
# app with Ctrl-C (expected) and lists the files; `tafel info` then says the
# REPL answered, not the app.
import fcntl
import os
import subprocess
import termios
import threading
import tty

from needs import POSIX, needs, tool
from simlink import ROOT, play
from tafel_host.cli import main

MPREMOTE = tool("mpremote")

pytestmark = [
    needs(POSIX, "pseudo-terminals", "the simulator's serial is one: run it on Linux or macOS"),
    needs(MPREMOTE is not None, "mpremote", "it comes with the tool: make's .venv, pip install ."),
]

APP = """import sys, time
sys.path.insert(0, %(lib)r)
sys.path.insert(0, %(firmware)r)
sys.path.append(%(host)r)  # the board around the chip, in this process (host_tools/simboard)
from sim.device import Device
from link.transport import StreamTransport
serial = StreamTransport(sys.stdin.buffer, sys.stdout.buffer, 11520, kbd=True)
device = Device(%(board)r, %(flash)r, 0, serial=serial, device_id="sim-repl")
print("app running")
while True:
    time.sleep_ms(10)
    device.advance(10)
"""

WORKED = "1 D D\n# # 2 6 6 wait:1200 6 6 2 #\n# # 2 2 3 3 6 6 #\n# # 2 2 2 5 5 5 3 3 6 6 6 #\nD #\nA D 3 6 D 5 0 B 3 # #\n"


def _controlling_terminal():
    # The terminal's Ctrl-C reaches only the foreground process of the terminal it controls.
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class ReplDevice:
    def __init__(self, app, cwd):
        from tafel_host.sim.launcher import find_micropython

        self.repl_master, repl_slave = os.openpty()
        self.host_master, self.host_slave = os.openpty()
        tty.setraw(repl_slave)  # a UART: bytes as they are, but Ctrl-C interrupts (ISIG)
        attrs = termios.tcgetattr(repl_slave)
        attrs[3] |= termios.ISIG
        termios.tcsetattr(repl_slave, termios.TCSANOW, attrs)
        tty.setraw(self.host_slave)
        self.port = os.ttyname(self.host_slave)
        self.proc = subprocess.Popen([str(find_micropython()), "-i", str(app)], cwd=cwd, stdin=repl_slave,
                                     stdout=repl_slave, stderr=repl_slave, preexec_fn=_controlling_terminal)
        os.close(repl_slave)
        for src, dst in ((self.host_master, self.repl_master), (self.repl_master, self.host_master)):
            threading.Thread(target=self._copy, args=(src, dst), daemon=True).start()

    @staticmethod
    def _copy(src, dst):
        while True:
            try:
                data = os.read(src, 256)
                os.write(dst, data)
            except OSError:
                return
            if not data:
                return

    def close(self):
        self.proc.kill()
        self.proc.wait()
        for fd in (self.repl_master, self.host_master, self.host_slave):
            os.close(fd)


def test_mpremote_lists_files_while_the_app_serves_the_link(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    script = tmp_path / "worked.txt"
    script.write_text(WORKED)
    flash = tmp_path / "flash.img"
    play(script, flash)
    files = tmp_path / "fs"
    files.mkdir()
    (files / "main.py").write_text("# the device's files\n")
    app = tmp_path / "app.py"
    app.write_text(APP % {"lib": str(ROOT / "lib"), "firmware": str(ROOT / "firmware"), "flash": str(flash),
                          "host": str(ROOT / "host_tools"),
                          "board": str(ROOT / "hardware" / "boards" / "esp32-devkitc-ssd1306.json")})
    device = ReplDevice(app, files)
    try:
        import serial

        with serial.Serial(device.port, 115200, timeout=30) as port:
            assert port.read_until(b"app running\n").endswith(b"app running\n")
        assert main(["export", "--port", device.port, "-o", "-", "--format", "csv"]) == 0
        assert "sim-repl,1,,standard,500,1,1,Anna,1,0,89,89" in capsys.readouterr().out
        done = subprocess.run([MPREMOTE, "connect", device.port, "resume", "fs", "ls", ":"],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "main.py" in done.stdout
        assert main(["info", "--port", device.port]) == 4  # Ctrl-C stopped the app: the REPL is there now
        assert "the device is at the MicroPython prompt" in capsys.readouterr().err
    finally:
        device.close()
