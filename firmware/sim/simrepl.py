# The simulated device's MicroPython REPL (never deployed), on the USB serial once a Ctrl-C stopped the firmware.
#
# sim/simusb.py's SimUSB brings it up: outside a link session a Ctrl-C stops
# the app and this takes the port, answering as MicroPython's does (the
# friendly prompt and the raw REPL mpremote drives; simusb.py's header says
# how). Its own module, imported only then: on the chip the REPL is C and
# holds nothing of the heap until it runs.
import io
import os
import sys

BANNER = b"MicroPython on the Tafel simulator\r\nType \"help()\" for more information.\r\n"
RAW = b"raw REPL; CTRL-B to exit\r\n>"
MOUNT = "/flash"


class Repl:
    """Stands in for the device's Runner while the firmware is stopped."""

    def __init__(self, usb, device, pending=b"", greeting=None):
        """greeting: what the REPL says first (default: the KeyboardInterrupt that stopped main.py)."""
        self.usb = usb
        self.device = device
        self.runner = device.runner
        device.runner = self
        self.raw = False
        self.exited = False  # the code run last called sys.exit()
        self.line = bytearray()
        self.pending = bytearray(pending)
        self.buf = bytearray(64)
        self.names = {}
        self.cwd = None
        self._mount()
        self.reset_names()
        if greeting is None:
            greeting = (b"Traceback (most recent call last):\r\n  File \"main.py\", in <module>\r\n"
                        b"KeyboardInterrupt: \r\n" + BANNER + b">>> ")
        self.out(greeting)

    def out(self, data):
        self.usb.write(data)

    def reset_names(self):
        captured = self._print
        self.names = {"__name__": "__main__", "print": captured}

    def _print(self, *args, **kw):
        sep = kw.get("sep", " ")
        end = kw.get("end", "\n")
        text = sep.join([str(a) for a in args]) + end
        self.out(_cooked(text))  # at once, as the device's REPL writes to the UART (nothing held)

    def step(self, now):
        # Everything waiting, as the device's REPL (C code) empties the UART's ring
        # faster than the line fills it: mpremote's raw-mode writes would overflow it.
        while True:
            n = self.usb.port.readinto(self.buf)
            data = self.pending + self.buf[:n]
            self.pending = bytearray()
            if not data:
                return
            for i in range(len(data)):
                if self.device.runner is not self:
                    return  # rebooted
                self._byte(data[i])

    def _byte(self, c):
        if self.raw:
            if c == 1 and self.line == b"\x05A":  # raw-paste: not offered, mpremote falls back
                self.line = bytearray()
                self.out(b"R\x00")
            elif c == 1:
                self.line = bytearray()
                self.out(b"\r\n" + RAW)
            elif c == 2:
                self.raw = False
                self.out(b"\r\n" + BANNER + b">>> ")
            elif c == 3:
                self.line = bytearray()
            elif c == 4:
                if self.line:
                    self.out(b"OK")
                    code, self.line = bytes(self.line), bytearray()
                    err = self.run(code, "exec")
                    self.out(b"\x04" + err + b"\x04>")
                    if self.exited:  # sys.exit(): a soft reboot that stays in the raw REPL
                        self.exited = False
                        self.reset_names()
                else:  # a soft reboot that stays in the raw REPL
                    self.reset_names()
                    self.out(b"OK\r\nMPY: soft reboot\r\n" + RAW)
            else:
                self.line.append(c)
            return
        if c == 1:
            self.raw = True
            self.line = bytearray()
            self.out(b"\r\n" + RAW)
        elif c == 2:
            self.out(b"\r\n" + BANNER + b">>> ")
        elif c == 3:
            self.line = bytearray()
            self.out(b"\r\n>>> ")
        elif c == 4:
            if not self.line:
                self.out(b"\r\nMPY: soft reboot\r\n")
                self.reboot()
        elif c == 13:
            self.out(b"\r\n")
            if self.line:
                code, self.line = bytes(self.line), bytearray()
                self.out(self.run(code, "line"))
                if self.exited:  # sys.exit() at the prompt: the soft reboot Ctrl-D is
                    self.exited = False
                    self.out(b"MPY: soft reboot\r\n")
                    self.reboot()
                    return
            self.out(b">>> ")
        elif c == 8 or c == 127:
            if self.line:
                self.line = self.line[:-1]
                self.out(b"\x08 \x08")
        elif c >= 32:
            self.line.append(c)
            self.out(bytes((c,)))

    def run(self, code, mode):
        """Runs code ("exec": a raw REPL block; "line": a line typed at >>>,
        whose value is shown); its output goes out as it is printed; returns the error
        text as the REPL sends it."""
        err = io.BytesIO()  # bytes: an error may quote code that is no text
        try:
            source = code.decode()
        except UnicodeError:  # bytes that are no text: compiled as they are, as the device's REPL does
            source = code
            mode = "exec"
        try:
            if mode == "line":
                try:
                    compiled = compile(source, "<stdin>", "eval")
                except SyntaxError:
                    exec(source, self.names)
                else:
                    value = eval(compiled, self.names)
                    if value is not None:
                        self._print(repr(value))
            else:
                exec(source, self.names)
        except SystemExit:  # MicroPython's REPL answers sys.exit() with a soft reboot
            self.exited = True
        except BaseException as e:  # the code's own error goes to the REPL, as on the device
            sys.print_exception(e, err)
        return _cooked(err.getvalue())

    def reboot(self):
        """Ctrl-D at the friendly prompt: the firmware starts again on the same flash."""
        self._unmount()
        device = self.device
        device.runner = self.runner
        self.usb.repl = None
        # boot.py runs again: run.py starts the process afresh, which loads the slot the pointer
        # names now (a first install by mpremote wrote one); a Device on its own boots again itself
        device.restart_pending = True

    def _mount(self):
        app = self.device.app
        vol = getattr(app.store.disk, "vol", None) if app is not None else None
        if vol is None:  # the flash is the root file system already (sim/flashboot.py), or none is known
            return
        self.cwd = os.getcwd()
        try:
            os.mount(vol, MOUNT)
        except OSError:
            pass  # mounted already
        os.chdir(MOUNT)

    def _unmount(self):
        if self.cwd is None:
            return
        os.chdir(self.cwd)
        try:
            os.umount(MOUNT)
        except OSError:
            pass
        self.cwd = None


def _cooked(text):
    # What the REPL's stdout does: "\n" goes out as "\r\n" (text or bytes in, bytes out).
    data = text.encode() if type(text) is str else text
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
