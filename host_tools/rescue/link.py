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
from ..lang import Phrase, count, say
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
                raise LinkError(say("rs_size_changed"))
            stream = _FlashStream(link, image, start, size, progress)
            try:
                crc = stream.run()
            finally:
                first = stream.reached
            if crc != zlib.crc32(memoryview(image)[start * size:]) & 0xFFFFFFFF:
                raise FlashReadError(say("rs_checksum"))
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
            raise LinkError(say("rs_beyond", block))
        self.image[at:at + len(data)] = data
        self.reached = block  # frames come in order: every block before this one is whole
        if self.progress:
            self.progress(at + len(data), len(self.image))


# ---- tafel info and tafel rescue --port -------------------------------------------------

WHY = {  # why the device is in recovery mode (texts_*_rescue.py)
    "unmountable": "rs_why_unmountable",
    "games_unlisted": "rs_why_games_unlisted",
    "boot_failed": "rs_why_boot_failed",
}


def print_recovery_info(link):
    """`tafel info` for a device in recovery mode; the exit code."""
    h = link.hello
    info = wire.parse_recovery_info(link.request(wire.INFO))
    _line("l_device", say("rs_info_device", h["id"], info["firmware"] or h["fw"], h["proto"]))
    if info["why"] == "boot_failed":  # no raw scan ran: its games are not counted
        print(say("rs_recovery", say(WHY["boot_failed"])))
    else:
        why = say(WHY[info["why"]]) if info["why"] in WHY else info["why"]
        print(say("rs_recovery_games", why, count(info["games"], "rs_game")))
    _line("l_flash", say("rs_info_flash", info["blocks"], info["block_size"],
                         say("rs_read_done") if info["read_done"] else say("rs_not_read")))
    _line("rs_l_rescue", say("rs_info_rescue"))
    return Exit.OK


def _line(label, text):
    # as tafel info's lines: the label in a column 9 wide
    print("%-8s %s" % (say(label), text))


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
    bar = Bar(say("rs_bar_flash", device))
    try:
        data = read_flash(link, bar)
        link.bye()
    except LinkError as err:
        bar.stop()
        print("tafel rescue: %s" % say("rs_read_failed", device, err), file=sys.stderr)
        return Exit.FAILED
    finally:
        bar.stop()
        link.close()
    if not getattr(args, "device_id", None):
        args.device_id = device
    if getattr(args, "save_image", None):
        with open(args.save_image, "wb") as f:
            f.write(data)
    return data, Phrase("rs_flash_of", device)
