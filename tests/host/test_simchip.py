# The simulator's chip side in C (the module simchip, firmware/port/unix/tafel/simchip.c and
# simflash.c) against the Python reference it stands in for (firmware/sim/wire.py PipeWire,
# simmachine.py, simbus.py, simwdt.py, fileflash.py): the same operations, once on each, must give
# the same frames on the wire, the same levels, the same interrupts, the same faults and the same
# flash image. Then: the paths the firmware takes at every step allocate nothing on the Python heap,
# and what the chip side takes of the heap.
#
# Drives the 32-bit device build (`make device-build`), which has both: simchip built in and the
# reference frozen (sim/). Each run is one process of the build with the script CHIP below, its
# wire two os.pipe()s as run.py's are (/dev/fd/N): this side writes the launcher's commands (B, N,
# G, Q, made with the launcher's own host_tools/simboard) and reads the chip's frames.
import ast
import io
import json
import os
import struct
import subprocess
import threading
from pathlib import Path

import pytest

from needs import needs
from tafel_host.simboard import wire as board_wire
from tafel_host.simboard.bench import DOWN, GROUND, UP, Bench

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "unix32-frozen-1.28.0" / "micropython"
BOARDS = ROOT / "hardware" / "boards"
ILI9341 = BOARDS / "esp32-devkitc-ili9341.json"
SSD1306 = BOARDS / "esp32-devkitc-ssd1306.json"

pytestmark = needs(BUILD.is_file() and os.access(BUILD, os.X_OK), "the 32-bit device build", "make device-build")

# The chip's side: `micropython CHIP IMPL SCENARIO WIRE_IN WIRE_OUT [ARGS...]`; IMPL "ref" (the
# Python reference, as run.py uses it) or "c" (simchip). The scenario prints its log last.
CHIP = r'''
import json
import sys

IMPL, SCENARIO, INP, OUTP = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
ARGS = sys.argv[5:]
log = []


class NS:
    pass


h = NS()
MACHINE = ("Pin", "I2C", "SPI", "PWM", "sleep_ms", "level", "keys_held", "grounded", "brightness",
           "reset", "reset_cause", "unique_id")


def _ref():
    # run.py's Chip and the Machine it makes, on a PipeWire
    from sim import simmachine, simwdt
    from sim.fileflash import FileFlash
    from sim.wire import PipeWire

    wire = PipeWire(open(INP, "rb"), open(OUTP, "wb"))
    simwdt.beat = wire.say
    st = NS()
    st.board = None
    st.nets = bytearray(260)
    st.m = None

    def command():
        k = wire.command()
        if k == 78:
            for i in range(wire.size):
                st.nets[i] = wire.cmd[i]
            if st.m is not None:
                st.m.nets(st.nets)
        elif k == 66:
            st.board = bytes(wire.cmd[:wire.size])
        return k

    def power_on():
        m = st.m = simmachine.Machine(wire)
        m.wire_up(st.board)
        m.nets(st.nets)
        for name in MACHINE:
            setattr(h, name, getattr(m, name))
        h.reset_asked = m.reset_asked
        h.faults = lambda: len(m.faults)
        h.elapsed_ms = lambda: m.elapsed_ms

        def strict(on):
            m.strict = on

        h.strict = strict

    h.command, h.power_on = command, power_on
    h.number, h.say, h.canvas, h.text, h.clear = wire.number, wire.say, wire.canvas, wire.text, wire.clear
    h.WDT, h.wdt_elapse, h.wdt_stop = simwdt.WDT, simwdt.elapse, simwdt.stop
    h.SimError, h.WatchdogReset, h.Flash = simmachine.SimError, simwdt.WatchdogReset, FileFlash


def _c():
    import simchip

    simchip.wire(INP, OUTP)
    for name in MACHINE + ("command", "power_on", "number", "say", "canvas", "text", "clear", "WDT",
                           "wdt_elapse", "wdt_stop", "SimError", "WatchdogReset", "Flash",
                           "reset_asked", "faults", "elapsed_ms", "strict"):
        setattr(h, name, getattr(simchip, name))


if IMPL == "ref":
    _ref()
else:
    _c()


def boot():
    # run.py's start: the board's wiring (B) and the nets (N) first, then the chip powers up
    k = 0
    board = False
    while not board or k != 78:
        k = h.command()
        if k == 66:
            board = True
        if k == 0:
            raise SystemExit("the wire closed before the board was said")
    h.power_on()


def plain(r):
    if r is None or isinstance(r, (int, str, bytes, float, bool)):
        return r
    if isinstance(r, (list, tuple)):
        return [plain(x) for x in r]
    if isinstance(r, bytearray):
        return bytes(r)
    return ("obj", type(r).__name__, r.id if type(r).__name__ == "Pin" else None)


def attempt(what, f, *args, **kw):
    try:
        r = plain(f(*args, **kw))
    except Exception as e:
        r = (type(e).__name__, e.args[0] if e.args else None)
    log.append((what, r))
    return r


def serve(observe=None, on_go=None):
    while True:
        k = attempt("cmd", h.command)
        if k in (0, 81):
            return
        if k == 71:
            n = h.number()
            log.append(("go", n))
            if on_go is not None:
                on_go(n)
        elif k == 78 and observe is not None:
            observe()


def profile():
    with open(ARGS[0]) as f:
        return json.load(f)


def keypad():
    spec = profile()["keypad"]
    boot()
    import board

    kp = board._keypad(spec, h)
    now = [0]

    def observe():
        log.append(("read", kp.read(), h.keys_held()))
        for _ in range(3):
            now[0] += 10
            log.append(("scan", kp.scan(now[0])))

    serve(observe)


def encoder():
    spec = profile()["encoder"]
    boot()
    import board

    enc = board._encoder(spec, h)
    a, b = enc._a, enc._b
    irq = enc._irq

    def rec(pin):
        log.append(("irq", pin.id, a.value(), b.value()))
        irq(pin)

    a.irq(handler=rec, trigger=a.IRQ_RISING | a.IRQ_FALLING)
    b.irq(handler=rec, trigger=3)
    now = [0]

    def observe():
        events = []
        for _ in range(3):
            now[0] += 15
            while True:
                e = enc.poll(now[0])
                if e is None:
                    break
                events.append(e)
        log.append(("knob", enc._pos, enc._state, events, h.grounded(spec["button"])))

    serve(observe)


def irq_order():
    boot()
    Pin = h.Pin
    ids = [int(x) for x in ARGS[0].split(",")]
    pins = [Pin(n, Pin.IN, Pin.PULL_UP) for n in ids]

    def rec(pin):
        log.append(("irq", pin.id))

    for i, p in enumerate(pins):
        p.irq(handler=rec, trigger=(3, 1, 2)[i % 3])
    for i in (1, 4, 7):  # deleted slots in the handlers' table, then some taken again
        pins[i].irq(handler=None)
    pins[4].irq(handler=rec, trigger=3)
    drv = Pin(2, Pin.OUT, value=1)

    def observe():
        log.append(("values", [attempt("v", p.value) for p in pins]))
        drv.value(0)
        drv.value(1)
        log.append(("levels", [h.level(n, True) for n in ids]))

    serve(observe)


def ssd1306():
    spec = profile()["display"]
    boot()
    import board

    d = board._display(spec, h)
    d.fill(0)
    d.text("Tafel 42", 0, 0, 1)
    d.show()
    i2c = d.i2c
    attempt("scan", i2c.scan)
    attempt("nobody", i2c.writeto, 61, b"\x00")
    attempt("writevto", i2c.writevto, 60, [b"\x40", bytearray(b"abc"), memoryview(b"xyzw")[1:]])
    attempt("writeto", i2c.writeto, 60, b"\x00\xaf")
    attempt("counters", lambda: (i2c.transactions, i2c.bytes_written))
    other = h.I2C(1, scl=h.Pin(5), sda=h.Pin(4))
    attempt("scan other", other.scan)
    attempt("other", other.writeto, 60, b"\x00")
    serve()


def lcd():
    spec = profile()["display"]
    boot()
    import board

    d = board._display(spec, h)
    d.fill(0)
    d.text("Tafel", 0, 0, 1)
    d.show()
    log.append(("after init", h.elapsed_ms(), h.brightness(spec["backlight"])))
    d.contrast(128)
    d.poweroff()
    log.append(("off", h.brightness(spec["backlight"]), h.level(spec["cs"], True)))
    d.poweron()
    log.append(("on", h.brightness(spec["backlight"]), h.elapsed_ms()))
    serve()


def pwm():
    boot()
    Pin, PWM = h.Pin, h.PWM
    bl = PWM(Pin(17, Pin.OUT, value=0), freq=1000, duty_u16=0)
    for v in (30000, 70000, -5, 2.7, 65535, 0, 1):
        attempt("duty", bl.duty_u16, v)
        log.append((bl.duty_u16(), h.level(17, True), h.brightness(17)))
    attempt("freq", bl.freq)
    bl.freq(500)
    attempt("freq", bl.freq)
    bl.deinit()
    log.append(("deinit", bl.duty_u16(), h.level(17, True), h.brightness(17)))
    quiet = PWM(26, duty_u16=100)  # not followed by the board: no W frame
    log.append(("quiet", quiet.duty_u16(), h.level(26, True)))
    attempt("input-only", PWM, Pin(34))
    attempt("missing", PWM, 20)
    serve()


def faults():
    boot()
    Pin = h.Pin
    for strict in (True, False):
        h.strict(strict)
        r = Pin(15, Pin.IN)
        attempt("floating", r.value)
        attempt("flash pin", Pin, 6)
        attempt("missing", Pin, 20)
        attempt("past 39", Pin, 40)
        attempt("input-only out", Pin, 34, Pin.OUT)
        attempt("no pull-up", Pin, 36, Pin.IN, Pin.PULL_UP)
        attempt("mode", Pin, 13, 5)
        attempt("spi miso", h.SPI, 1, sck=Pin(14), mosi=Pin(13))
        attempt("spi id", h.SPI, 3, miso=None)
        a = Pin(2, Pin.OUT, value=1)
        b = Pin(4, Pin.OUT, value=0)
        attempt("cmd", h.command)  # N: 2 and 4 joined
        attempt("short", a.value)
        attempt("short b", b.value)
        log.append(("quiet", h.level(2, True), h.level(15, True), h.level(34, True)))
        attempt("cmd", h.command)  # N: apart
        attempt("apart", a.value)
        attempt("cmd", h.command)  # N: too many keys
        log.append(("faults", h.faults()))
    serve()


def wire():
    boot()
    h.say(b"ok")
    h.say("hello world")
    h.canvas(4, 20)
    h.text(0, 0, "Tafel")
    h.text(1, -1, "x")
    h.text(3, 5, "Gr\u00fc\u00dfe")
    h.clear(2)
    h.sleep_ms(5)
    h.sleep_ms(120)
    log.append(("elapsed", h.elapsed_ms()))
    w = h.WDT(timeout=100)
    w.feed()
    h.wdt_elapse(60)
    w.feed()
    h.wdt_elapse(60)
    try:
        h.wdt_elapse(60)
        log.append("no reset")
    except h.WatchdogReset as e:
        log.append(("reset", str(e), isinstance(e, Exception)))
    h.WDT(0, 50)
    h.wdt_stop()
    h.wdt_stop()
    attempt("timeout 0", h.WDT, timeout=0)
    h.wdt_elapse(10000)  # none runs
    log.append((h.reset_asked(), h.reset_cause(), h.unique_id()))
    h.reset()
    log.append((h.reset_asked(), h.keys_held(), h.grounded(4)))
    import machine

    Pin = h.Pin
    p = Pin(13, Pin.OUT, value=0)
    sig = machine.Signal(p, invert=True)  # the pin protocol
    sig.on()
    log.append(("signal", repr(p), p.value(), sig.value(), h.level(13)))
    sig.off()
    log.append(("signal", p(), sig.value()))
    p.init(Pin.IN, Pin.PULL_DOWN)
    log.append(("init", p.value(), h.level(13, True)))
    p.init(pull=None)
    log.append(("init", h.level(13, True)))
    p.init(Pin.OPEN_DRAIN, value=0)
    log.append(("init", h.level(13, True)))
    p.on()
    log.append(("on", h.level(13, True)))
    serve(on_go=lambda n: h.say(b"ok"))


def wake():
    boot()
    Pin = h.Pin
    Pin(5, Pin.OUT, value=1)
    Pin(21, Pin.OUT, value=0)
    h.PWM(Pin(17, Pin.OUT, value=0), duty_u16=1000)
    btn = Pin(4, Pin.IN, Pin.PULL_UP)

    def rec(pin):
        log.append(("irq", pin.id))

    btn.irq(handler=rec, trigger=Pin.IRQ_FALLING)
    h.reset()
    h.sleep_ms(7)

    def on_go(n):
        h.power_on()  # the wake: the chip boots again in the same process
        log.append(("woke", h.level(5, True), h.level(17, True), h.level(4, True), h.reset_asked(), h.faults(),
                    h.elapsed_ms(), h.keys_held(), h.grounded(4)))

    def observe():
        log.append(("nets", h.grounded(4), h.keys_held(), h.level(4, True)))

    serve(observe, on_go)


def flash():
    import os

    import vfs

    path, blocks, size = ARGS[0], int(ARGS[1]), int(ARGS[2])
    f = h.Flash(path, blocks, size)
    vfs.VfsLfs2.mkfs(f)
    vfs.mount(vfs.VfsLfs2(f, mtime=False), "/fl")  # no clock in the image: both the same
    for i in range(12):
        with open("/fl/f%d" % i, "wb") as o:
            o.write(bytes([i]) * (i * 700 + 13))
    os.mkdir("/fl/d")
    os.rename("/fl/f3", "/fl/d/three")
    for i in (0, 5, 6):
        os.remove("/fl/f%d" % i)
    with open("/fl/f7", "ab") as o:
        o.write(b"more" * 300)
    vfs.umount("/fl")
    f.close()
    f = h.Flash(path, blocks, size)  # the image file as it was left
    vfs.mount(vfs.VfsLfs2(f, mtime=False), "/fl")  # no clock in the image: both the same
    names = sorted(os.listdir("/fl"))
    sums = []
    for name in names:
        if name != "d":
            with open("/fl/" + name, "rb") as i:
                data = i.read()
            sums.append((name, len(data), sum(data)))
    log.append(("files", names, sums, os.listdir("/fl/d")))
    vfs.umount("/fl")
    log.append(("counters", f.reads, f.read_bytes, f.programs, f.programmed, f.erases))
    last = blocks - 1
    buf = bytearray(4)
    attempt("ioctl", lambda: [f.ioctl(op, 0) for op in (1, 2, 3, 4, 5)])
    attempt("erase", f.ioctl, 6, last)
    attempt("program", f.writeblocks, last, b"\xf0\x0f\xff\x00", 8)
    attempt("program again", f.writeblocks, last, b"\x3c\x3c\x3c\x3c", 8)
    attempt("read", f.readblocks, last, buf, 8)
    log.append(("nor", bytes(buf)))
    attempt("past the end", f.readblocks, blocks, buf)
    attempt("past the end 2", f.readblocks, last, buf, size - 2)
    attempt("negative", f.writeblocks, 0, b"x", -1)
    attempt("erase past", f.ioctl, 6, blocks)
    attempt("short whole", f.writeblocks, 2, b"\x00" * 10)  # the simple protocol: no whole block, nothing
    log.append(("counters", f.reads, f.read_bytes, f.programs, f.programmed, f.erases))
    f.close()
    try:
        h.Flash(path, blocks + 1, size)
        log.append("taken")
    except OSError as e:
        log.append(("refused", str(e).replace(path, "<image>")))


def locked():
    # simchip alone: the paths of every step under micropython.heap_lock() (no star-args, no
    # closures in there: calling them would allocate by itself)
    import micropython

    import simchip

    global S, count, rows, cols, a, b, cs, dc, i2c, spi, f, w, bufs, data, block, part
    S = simchip
    count = 0
    boot()
    Pin = S.Pin
    rows = [Pin(n, Pin.OPEN_DRAIN, None, value=1) for n in (13, 12)]
    cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in (26, 25)]
    a = Pin(34, Pin.IN)
    b = Pin(35, Pin.IN)
    a.irq(handler=tick, trigger=3)
    b.irq(handler=tick, trigger=3)
    cs = Pin(5, Pin.OUT, value=1)
    dc = Pin(16, Pin.OUT, value=0)
    i2c = S.I2C(0, scl=Pin(22), sda=Pin(21))
    spi = S.SPI(2, baudrate=40000000, sck=Pin(18), mosi=Pin(19), miso=None)
    f = S.Flash(ARGS[0], 16, 4096)
    w = S.WDT(timeout=100000)
    bufs = [b"\x40", bytearray(32)]
    data = bytearray(512)
    block = bytearray(4096)
    part = bytearray(256)
    step()  # once before the lock
    micropython.heap_lock()
    try:
        for _ in range(20):
            step()
        k1 = S.command()  # G
        n = S.number()
        k2 = S.command()  # N: a key joins 13 and 26, the knob's A grounded
        mask = scan(rows, cols)
        g = S.grounded(34)
        held = S.keys_held()
        k3 = S.command()  # N: all let go
        mask2 = scan(rows, cols)
    finally:
        micropython.heap_unlock()
    log.append(("locked", k1, n, k2, mask, k3, mask2, count, g, held, S.faults()))
    serve()


def tick(pin):
    global count
    count += 1


def scan(rows, cols):
    mask = 0
    bit = 1
    for r in rows:
        r.value(0)
        for c in cols:
            if not c.value():
                mask |= bit
            bit <<= 1
        r.value(1)
    return mask


def step():
    scan(rows, cols)
    a.value()
    b()
    i2c.writevto(60, bufs)
    i2c.writeto(60, b"\x00")
    cs.value(0)
    dc(1)
    spi.write(data)
    cs.off()
    cs.on()
    S.text(0, 0, "Tafel")
    S.clear(1)
    S.canvas(4, 20)
    S.say(b"ok")
    S.sleep_ms(1)
    w.feed()
    S.wdt_elapse(10)
    f.readblocks(3, block)
    f.writeblocks(3, block)
    f.readblocks(4, part, 256)
    f.writeblocks(4, part, 512)
    f.ioctl(6, 5)
    f.ioctl(4, 0)
    S.level(34, True)


globals()[SCENARIO]()
print(repr(log))
'''


@pytest.fixture(scope="module")
def chip_script(tmp_path_factory):
    path = tmp_path_factory.mktemp("simchip") / "chip.py"
    path.write_text(CHIP)
    return path


def command(kind, payload=b""):
    return board_wire.command(kind, payload)


def nets(pairs=(), flags=None):
    """An N payload: joined pairs, then {gpio: flags}."""
    flags = flags or {}
    out = bytearray([len(pairs)])
    for a, b in pairs:
        out += bytes([a, b])
    out.append(len(flags))
    for n in sorted(flags):
        out += bytes([n, flags[n]])
    return command(board_wire.NETS, bytes(out))


def board(i2c=(), spi=(), heard=()):
    """A B payload: [((scl, sda), addresses)], [(sck, mosi)], [gpio]."""
    out = bytearray([len(i2c)])
    for (scl, sda), addresses in i2c:
        out += bytes([scl, sda, len(addresses)] + sorted(addresses))
    out.append(len(spi))
    for sck, mosi in spi:
        out += bytes([sck, mosi])
    out.append(len(heard))
    out += bytes(heard)
    return command(board_wire.BOARD, bytes(out))


def run_chip(script, impl, scenario, commands, *args):
    """One chip process: (its log, the frames it put on the wire)."""
    r_cmd, w_cmd = os.pipe()
    r_out, w_out = os.pipe()
    proc = subprocess.Popen(
        [str(BUILD), "-X", "heapsize=1M", str(script), impl, scenario, "/dev/fd/%d" % r_cmd,
         "/dev/fd/%d" % w_out, *[str(a) for a in args]],
        pass_fds=(r_cmd, w_out), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(script.parent))
    os.close(r_cmd)
    os.close(w_out)
    got = []

    def drain():
        with os.fdopen(r_out, "rb", buffering=0) as f:
            while True:
                piece = f.read(65536)
                if not piece:
                    return
                got.append(piece)

    def feed():
        with os.fdopen(w_cmd, "wb", buffering=0) as f:
            try:
                f.write(commands)
            except BrokenPipeError:
                pass

    threads = [threading.Thread(target=drain), threading.Thread(target=feed)]
    for t in threads:
        t.start()
    try:
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
        for t in threads:
            t.join(timeout=30)
    assert proc.returncode == 0, (impl, scenario, err.decode()[-3000:])
    log = ast.literal_eval(out.decode().strip().splitlines()[-1])
    return log, list(board_wire.frames(io.BytesIO(b"".join(got))))


def both(script, scenario, commands, *args):
    """The scenario on the reference and on simchip: the same log, the same frames."""
    ref_log, ref_frames = run_chip(script, "ref", scenario, commands, *args)
    c_log, c_frames = run_chip(script, "c", scenario, commands, *args)
    assert c_log == ref_log
    assert len(c_frames) == len(ref_frames)
    for i, (c, r) in enumerate(zip(c_frames, ref_frames)):
        assert c == r, "frame %d differs" % i
    return c_log, c_frames


def kinds(frames):
    return b"".join(kind for kind, _ in frames)


def bench_of(path):
    bench = Bench(json.loads(path.read_text()))
    sent = []
    bench.attach(sent.append)
    return bench, sent


def test_a_keypad_scan_on_a_net_of_held_keys(chip_script):
    bench, sent = bench_of(ILI9341)
    cmds = [command(board_wire.BOARD, bench.board_frame()), command(board_wire.NETS, bench.nets_frame())]
    bench.matrix.press("5")
    bench.matrix.press("D")       # two keys
    bench.matrix.release("5")
    bench.matrix.press("1")
    bench.matrix.press("2")
    bench.matrix.press("4")       # 1, 2, 4 and D: ghost-prone
    bench.matrix.release()
    cmds += [command(board_wire.NETS, p) for p in sent] + [command(board_wire.QUIT)]
    log, frames = both(chip_script, "keypad", b"".join(cmds), ILI9341)
    reads = [entry for entry in log if entry[0] == "read"]
    assert [r[2] for r in reads] == [1, 2, 1, 2, 3, 4, 0]
    assert reads[0][1] != 0 and reads[-1][1] == 0
    assert ("scan", "5") in log
    assert kinds(frames) == b"P" * 4   # the LCD's lines said once, floating: the keys never touch them
    assert all(payload[1] == 2 for _, payload in frames)


def test_an_encoder_turn_runs_the_interrupts_on_both_edges(chip_script):
    bench, sent = bench_of(ILI9341)
    cmds = [command(board_wire.BOARD, bench.board_frame()), command(board_wire.NETS, bench.nets_frame())]
    for _ in range(4):
        bench.knob.step(1)        # one detent clockwise: four N frames
    for _ in range(2):
        bench.knob.step(-1)
    for _ in range(2):
        bench.knob.step(1)
    bench.knob.turn(-1)
    bench.knob.push()
    bench.knob.release()
    cmds += [command(board_wire.NETS, p) for p in sent] + [command(board_wire.QUIT)]
    log, _ = both(chip_script, "encoder", b"".join(cmds), ILI9341)
    irqs = [entry for entry in log if entry[0] == "irq"]
    assert len(irqs) == 12        # every contact change (12 steps), rising and falling
    assert {entry[1] for entry in irqs} == {34, 35}
    knobs = [entry for entry in log if entry[0] == "knob"]
    assert knobs[3][1] == 4 and "CW" in knobs[3][3]
    assert any("CCW" in k[3] for k in knobs)
    assert any("PUSH" in k[3] for k in knobs)
    assert any(k[4] for k in knobs) and not knobs[-1][4]


def test_new_nets_run_the_handlers_in_the_reference_order(chip_script):
    ids = [0, 4, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 25, 26, 27, 32, 33]
    flags = {n: GROUND for n in ids}
    cmds = [board(heard=(5,)), nets(), nets(flags=flags), nets(),
            nets(flags={n: GROUND for n in ids[::2]}), nets(flags={n: DOWN for n in ids[1::3]}),
            nets(pairs=[(2, 13), (13, 27), (27, 0)], flags={4: GROUND, 14: UP}),
            nets(pairs=[(2, 13), (13, 27), (27, 0), (0, 4)], flags={4: GROUND}),
            nets(), command(board_wire.QUIT)]
    log, _ = both(chip_script, "irq_order", b"".join(cmds), ",".join(map(str, ids)))
    irqs = [entry[1] for entry in log if entry[0] == "irq"]
    assert len(irqs) > 30
    # all grounded at once: the falling edges in the handlers' dict order (a table of 23 slots,
    # GPIO 23 in slot 1 after GPIO 0), not the GPIOs' order
    first = [entry[1] for entry in log[:log.index(("cmd", 78))] if entry[0] == "irq"]  # logged before it
    assert first[:3] == [0, 23, 26] and first.index(23) < first.index(12)
    assert ("v", ("SimError", "short circuit on GPIO 13")) in log


def test_an_ssd1306_on_i2c(chip_script):
    bench, _ = bench_of(SSD1306)
    cmds = [command(board_wire.BOARD, bench.board_frame()), command(board_wire.NETS, bench.nets_frame()),
            command(board_wire.QUIT)]
    log, frames = both(chip_script, "ssd1306", b"".join(cmds), SSD1306)
    assert ("scan", [60]) in log
    assert ("nobody", ("OSError", 19)) in log
    assert ("writevto", 8) in log   # 7 bytes and the address
    assert ("other", ("OSError", 19)) in log
    i2c = [payload for kind, payload in frames if kind == board_wire.I2C]
    assert all(p[:2] == b"\x00\x3c" for p in i2c)
    assert b"\x00\x3c\x40abcyzw" in i2c
    assert sum(len(p) - 3 for p in i2c if p[2] == 0x40) >= 1024   # the whole picture


def test_a_colour_lcd_on_spi_with_its_lines_and_backlight(chip_script):
    bench, _ = bench_of(ILI9341)
    cmds = [command(board_wire.BOARD, bench.board_frame()), command(board_wire.NETS, bench.nets_frame()),
            command(board_wire.QUIT)]
    log, frames = both(chip_script, "lcd", b"".join(cmds), ILI9341)
    seen = set(kinds(frames))
    assert seen >= {ord(k) for k in "PSZW"}
    # the frames drive the launcher's own ILI9341: the picture comes out (the board's side works)
    for kind, payload in frames:
        board_wire.deliver(bench, kind, payload)
    assert not bench.faults
    assert log[0][0] == "after init" and log[0][1] >= 120


def test_a_pwm_backlight(chip_script):
    cmds = [board(heard=(17,)), nets(), command(board_wire.QUIT)]
    log, frames = both(chip_script, "pwm", b"".join(cmds))
    w = [struct.unpack("<BHB", p) for kind, p in frames if kind == board_wire.PWM]
    assert w[:3] == [(17, 0, 1), (17, 30000, 1), (17, 65535, 1)]
    assert w[-1] == (17, 0, 0)    # deinit: stopped
    assert ("input-only", ("SimError", "GPIO 34 is input-only: no PWM")) in log
    assert ("missing", ("ValueError", "invalid pin 20")) in log


def test_floating_reads_shorts_and_the_chip_rules_are_faults(chip_script):
    join = nets(pairs=[(2, 4)])
    too_many = nets(pairs=[(n, n + 1) for n in (0, 2, 12, 14, 16, 18, 22, 25, 32, 36)] * 4)
    cmds = [board(heard=(2, 4)), nets(), join, nets(), too_many, join, nets(), too_many,
            command(board_wire.QUIT)]
    log, frames = both(chip_script, "faults", b"".join(cmds))
    assert ("floating", ("SimError", "GPIO 15 read while floating")) in log
    assert ("short", ("SimError", "short circuit on GPIO 2")) in log
    assert ("flash pin", ("SimError", "GPIO 6 belongs to the module's flash")) in log
    assert ("cmd", ("SimError", "more keys held than the simulator follows")) in log
    assert ("floating", 1) in log and ("short", 0) in log   # not strict: counted, and read anyway
    assert [e for e in log if e[0] == "faults"][-1][1] > 5
    assert kinds(frames).startswith(b"PP")


def test_the_wire_lines_text_sleep_and_the_watchdog(chip_script):
    cmds = [board(), nets(), board_wire.go(20), board_wire.go(2 ** 31 + 5), command(board_wire.QUIT)]
    log, frames = both(chip_script, "wire", b"".join(cmds))
    lines = [p for kind, p in frames if kind == board_wire.LINE]
    assert lines == [b"ok", b"hello world", b"wdt 100", b"fed", b"fed", b"wdt 50", b"wdt 0", b"ok", b"ok"]
    assert ("reset", "not fed for 120 ms", False) in log
    assert ("go", 2 ** 31 + 5) in log
    texts = [p for kind, p in frames if kind == board_wire.TEXT]
    assert texts == [b"\x00\x00Tafel", b"\x01\xffx", b"\x03\x05Gr\xc3\xbc\xc3\x9fe"]
    assert log[-1] == ("cmd", 81)
    assert ("signal", "Pin(13)", 0, 1, 0) in log and ("signal", 1, 0) in log
    assert ("init", 0, 0) in log and ("init", None) in log and ("on", None) in log


def test_a_wake_puts_the_pins_back_and_keeps_the_board(chip_script):
    bench, sent = bench_of(ILI9341)
    cmds = [command(board_wire.BOARD, bench.board_frame()), command(board_wire.NETS, bench.nets_frame())]
    bench.knob.push()
    bench.knob.release()
    cmds += [command(board_wire.NETS, p) for p in sent]
    bench.knob.push()
    cmds += [board_wire.go(999), command(board_wire.NETS, sent[-1])]
    cmds += [command(board_wire.QUIT)]
    log, frames = both(chip_script, "wake", b"".join(cmds), ILI9341)
    assert log.count(("irq", 4)) == 1    # before the wake only: the handler went with the reboot
    woke = [e for e in log if e[0] == "woke"][0]
    assert woke[1:] == (None, None, None, False, 0, 0, 0, False)   # the knob's button let go, no pull-up
    assert ("nets", True, 0, 0) in log[log.index(woke):]             # pushed after the wake: no interrupt
    assert kinds(frames).count(b"P") >= 8   # said again after the wake


@pytest.mark.parametrize("blocks,size", [(512, 4096), (40, 4096), (64, 1024)])
def test_the_flash_under_littlefs(chip_script, tmp_path, blocks, size):
    images = {}
    logs = {}
    for impl in ("ref", "c"):
        image = tmp_path / ("%s.img" % impl)
        logs[impl], _ = run_chip(chip_script, impl, "flash", command(board_wire.QUIT), image, blocks, size)
        images[impl] = image.read_bytes()
    assert logs["c"] == logs["ref"]
    assert images["c"] == images["ref"]
    assert len(images["c"]) == blocks * size
    log = logs["c"]
    files = log[0]
    assert files[1] == ["d", "f1", "f10", "f11", "f2", "f4", "f7", "f8", "f9"] and files[3] == ["three"]
    assert ("nor", b"\x30\x0c\x3c\x00") in log
    assert log[-1][0] == "refused" and "<image>" in log[-1][1]


def test_the_step_paths_allocate_nothing(chip_script, tmp_path):
    cmds = [board(i2c=[((22, 21), [60])], spi=[(18, 19)], heard=(5, 16)),
            nets(flags={34: UP, 35: UP}), board_wire.go(40),
            nets(pairs=[(13, 26)], flags={34: UP | GROUND, 35: UP}), nets(flags={34: UP, 35: UP}),
            command(board_wire.QUIT)]
    log, frames = run_chip(chip_script, "c", "locked", b"".join(cmds), tmp_path / "lock.img")
    assert log[0] == ("locked", 71, 40, 78, 1, 78, 0, 2, True, 1, 0)
    assert len(frames) > 21 * 9


HEAP = r'''
import gc
import sys

import simchip
import vfs


def chip():
    # what a board's boot makes of the chip (the ILI9341 board's pins, its buses), in a function:
    # no globals of the script's own are counted
    gc.collect()
    a0 = gc.mem_alloc()
    simchip.wire("/dev/null", "/dev/null")
    simchip.power_on()
    P = simchip.Pin
    for n in (27, 14, 13, 23):
        P(n, P.OPEN_DRAIN, None, value=1)
    for n in (32, 33, 25, 26):
        P(n, P.IN, P.PULL_UP)
    keep = (P(34, P.IN), P(35, P.IN), P(4, P.IN, P.PULL_UP), P(5, P.OUT, value=1), P(21, P.OUT, value=0),
            P(22, P.OUT, value=1), simchip.I2C(0, scl=P(22), sda=P(21)),
            simchip.SPI(2, baudrate=40000000, sck=P(18), mosi=P(19), miso=None),
            simchip.PWM(P(17, P.OUT, value=0), freq=1000, duty_u16=0), simchip.WDT(timeout=5000))
    gc.collect()
    a1 = gc.mem_alloc()
    f = simchip.Flash(sys.argv[1])
    gc.collect()
    a2 = gc.mem_alloc()
    vfs.VfsLfs2.mkfs(f)
    vfs.mount(vfs.VfsLfs2(f), "/flash")
    gc.collect()
    a3 = gc.mem_alloc()
    return a0, a1 - a0 - 48, a2 - a1, a3 - a2, keep  # 48: the tuple `keep` (10 items)


print(repr(chip()[:4]))
'''


def test_what_the_chip_side_takes_of_the_heap(tmp_path):
    """The simulator's own bytes in the device's heap: the pins a board uses, I2C, SPI, PWM and the
    flash (LittleFS mounted on it is the chip's own: the ESP32 mounts it in its heap too)."""
    script = tmp_path / "heap.py"
    script.write_text(HEAP)
    done = subprocess.run([str(BUILD), "-X", "heapsize=56K", str(script), str(tmp_path / "h.img")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    start, chip, flash, lfs = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    assert chip == 0      # static objects: pins, buses, the watchdog
    assert flash == 64    # the one Flash object
    assert lfs < 1024
