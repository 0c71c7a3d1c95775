# The board's end of the wire to the simulated chip: commands out, the chip's frames in (format: firmware/sim/wire.py).
#
#   write(pipe, command(GO, struct.pack("<I", ms)))     # a command, in one write (the chip reads it whole)
#   for kind, payload in frames(pipe): ...               # what the chip puts out, in order
#   deliver(bench, kind, payload)                        # a bus or pin frame to the board's parts
#
# CPython only (the launcher, host_tools/sim/device.py); the firmware tests
# wire chip and board in one process without frames (firmware/sim/wire.py LocalWire).
import struct

# board -> chip
BOARD, NETS, GO, QUIT = b"B", b"N", b"G", b"Q"
# chip -> board
I2C, SPI, PIN, PWM, SLEEP, CANVAS, TEXT, CLEAR, LINE = b"I", b"S", b"P", b"W", b"Z", b"K", b"T", b"C", b"R"


def command(kind, payload=b""):
    """One command frame: kind, u16 length, payload."""
    if len(payload) > 260:
        raise ValueError("a command of %d bytes is more than the chip takes" % len(payload))
    return kind + struct.pack("<H", len(payload)) + payload


def go(ms):
    return command(GO, struct.pack("<I", ms))


class Closed(Exception):
    """The chip's end of the pipe closed (the process ended)."""


def _exactly(read, n):
    data = b""
    while len(data) < n:
        piece = read(n - len(data))
        if not piece:
            raise Closed()
        data += piece
    return data


def frames(stream):
    """(kind, payload) for every frame the chip sends, until its end of the pipe closes.

    stream: a binary file read unbuffered-safe (read(n) returns what there is, b"" at the end)."""
    read = stream.read
    try:
        while True:
            head = _exactly(read, 5)
            kind, size = head[:1], struct.unpack("<I", head[1:])[0]
            payload = _exactly(read, size) if size else b""
            if kind == TEXT:  # then the text's UTF-8 bytes up to a 0 byte
                text = bytearray()
                while True:
                    b = _exactly(read, 1)
                    if b == b"\x00":
                        break
                    text += b
                payload += bytes(text)
            yield kind, payload
    except Closed:
        return


def deliver(bench, kind, payload):
    """A frame that is not a line, to the board's parts (host_tools/simboard/bench.py)."""
    if kind == I2C:
        bench.i2c_write(payload[0], payload[1], [payload[2:]])
    elif kind == SPI:
        bench.spi_write(payload[0], payload[1:])
    elif kind == PIN:
        bench.pin(payload[0], None if payload[1] == 2 else payload[1])
    elif kind == PWM:
        gpio, duty, on = struct.unpack("<BHB", payload)
        bench.pwm(gpio, duty if on else None)
    elif kind == SLEEP:
        bench.sleep(struct.unpack("<I", payload)[0])
    elif kind == CANVAS:
        bench.forget_text(payload[0], payload[1])
    elif kind == TEXT:
        col = payload[1] - 256 if payload[1] > 127 else payload[1]
        bench.text(payload[0], col, payload[2:].decode("utf-8", "replace"))
    elif kind == CLEAR:
        bench.clear(payload[0])
    else:
        raise ValueError("a frame of kind %r from the chip" % kind)
