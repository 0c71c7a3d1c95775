# The laptop's end of reading a device's raw flash over the serial link (FLASH_READ, docs/protocol.md), for tafel rescue.
#
#   data = read_flash(link, progress)      # the whole partition, erased blocks as 0xFF
#   tafel rescue --port /dev/ttyUSB0 [--save-image flash.bin]
#
# The device streams the blocks it holds in the export's window (FLASH_DATA:
# block, offset, bytes; pieces that are all 0xFF are left out, so an evening's
# flash costs its used blocks on the wire), then FLASH_DONE with the CRC32 of
# every byte it read, checked here against the image put together. A device
# in recovery mode (its handshake says mode=recovery) and one in normal mode
# both serve it. A read cut short (the cable, a reset) is resumed once the
# device answers again, from the block it had got to.
import sys
import zlib

from tafel import wire
from tafel.records import varints

from ..exits import Exit
from ..link.errors import DeviceGone, LinkError
from ..link.stream import Counts, InOrderStream

RESUMES = 3  # a cut-short read starts again where it got to this often


class FlashReadError(LinkError):
    """The read came whole but does not match the device's checksum."""


def read_flash(link, progress=None):
    """The device's raw flash partition as bytes (blocks x block size, what no frame carried 0xFF).

    link: an open link.client.Link; progress(bytes reached, bytes in all) as the read goes."""
    image = None
    first = 0
    for attempt in range(RESUMES + 1):
        try:
            body = wire.Body(link.request(wire.FLASH_READ, bytes(varints(first)) if first else b""))
            start, blocks, size = body.varint(), body.varint(), body.varint()
            if image is None:
                image = bytearray(b"\xff" * (blocks * size))
            elif len(image) != blocks * size:
                raise LinkError("the device's flash changed size between two reads")
            stream = _FlashStream(link, image, start, size, progress)
            try:
                crc = stream.run()
            finally:
                first = stream.reached
            if crc != zlib.crc32(memoryview(image)[start * size:]) & 0xFFFFFFFF:
                raise FlashReadError("the flash read does not match the device's checksum")
            return bytes(image)
        except DeviceGone:
            if attempt == RESUMES:
                raise
            link.handshake()  # NoAnswer when it is gone for good
    raise AssertionError("not reached")


class _FlashStream(InOrderStream):
    """One FLASH_READ stream, taken as an export's is (link.stream.InOrderStream: in order, acked,
    go-back on a gap or a damaged line, NoisyLine on a line that stays noisy)."""

    KINDS = (wire.FLASH_DATA, wire.FLASH_DONE)
    WHAT = "mid_flash_read"

    def __init__(self, link, image, first, size, progress):
        InOrderStream.__init__(self, link, Counts())
        self.image, self.size, self.progress = image, size, progress
        self.reached = first  # the blocks before it came whole: where a resumed read begins
        self.crc = None

    def run(self):
        """The CRC32 FLASH_DONE gives, once every frame before it came in order."""
        InOrderStream.run(self)
        return self.crc

    def _take(self, kind, body):
        if kind == wire.FLASH_DONE:
            self.crc = wire.parse_flash_done(body)[2]
            return True
        self._take_data(body)
        return False

    def _take_data(self, body):
        block, offset, data = wire.parse_flash_data(body)
        at = block * self.size + offset
        if at + len(data) > len(self.image):
            raise LinkError("the device sent bytes beyond its flash (block %d)" % block)
        self.image[at:at + len(data)] = data
        self.reached = block  # frames come in order: every block before this one is whole
        if self.progress:
            self.progress(at + len(data), len(self.image))


# ---- tafel info and tafel rescue --port -------------------------------------------------

WHY = {
    "unmountable": "its file system does not mount",
    "games_unlisted": "its file system shows no games (its folders are gone)",
    "boot_failed": "mounting its file system failed (an error of the flash or the heap; the device printed it)",
}


def print_recovery_info(link):
    """`tafel info` for a device in recovery mode; the exit code."""
    h = link.hello
    info = wire.parse_recovery_info(link.request(wire.INFO))
    print("device   %s (firmware %s, link protocol %d)" % (h["id"], info["firmware"] or h["fw"], h["proto"]))
    if info["why"] == "boot_failed":  # no raw scan ran: its games are not counted
        print("recovery mode: %s" % WHY["boot_failed"])
    else:
        print("recovery mode: %s, while the raw flash holds %d game%s"
              % (WHY.get(info["why"], info["why"]), info["games"], "" if info["games"] == 1 else "s"))
    print("flash    %d blocks of %d bytes; %s" % (info["blocks"], info["block_size"],
          "read whole by a laptop since power-up" if info["read_done"] else "not read by a laptop since power-up"))
    print("rescue   tafel rescue --port PORT reads it and rebuilds the games; then format on the device (C, #)")
    return Exit.OK


def read_over_port(args):
    """(image bytes, name) read from the device at args.port (tafel rescue --port), or an exit code
    with the reason printed: 1 the read failed, 3 no device. Saves the image when --save-image."""
    from ..link import ports
    from ..link.client import BAUD, Link
    from ..progress import Bar

    try:
        _, link = ports.find(lambda port: Link.open(port, args.baud or BAUD), port=args.port)
    except ports.PortError as err:
        print("tafel rescue: %s" % err, file=sys.stderr)
        return err.code
    device = link.hello["id"]
    bar = Bar("flash of " + device)
    try:
        data = read_flash(link, bar)
        link.bye()
    except LinkError as err:
        bar.stop()
        print("tafel rescue: reading the flash of %s failed: %s" % (device, err), file=sys.stderr)
        return Exit.FAILED
    finally:
        bar.stop()
        link.close()
    if not getattr(args, "device_id", None):
        args.device_id = device
    if getattr(args, "save_image", None):
        with open(args.save_image, "wb") as f:
            f.write(data)
    return data, "the flash of %s" % device
