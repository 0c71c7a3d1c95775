# FLASH_READ: the raw flash partition streamed to the laptop as it is (docs/protocol.md), in recovery and in normal mode.
#
# The stream is the export's (link/link.py: window, ACKs, go-back): FLASH_DATA
# frames of block, offset and bytes, a power-of-two piece of a block each,
# then FLASH_DONE with the CRC32 of every byte of the blocks read. Pieces that
# are all 0xFF are not sent (the laptop starts from an erased image), so a
# flash holding an evening costs its used blocks on the wire, not 2 MB; a block
# with nothing to send gives an empty FLASH_DATA, which keeps each step's work
# to one block and tells the laptop how far the read has come. Reading is
# harmless: nothing is written, and in normal mode the app goes on (a round
# saved during the read may be half in the copy: read a device at rest).
import struct
from binascii import crc32

from micropython import const

from tafel import wire
from tafel.records import put_varint, varints

_IOCTL_BLOCK_COUNT = const(4)
_IOCTL_BLOCK_SIZE = const(5)


def device():
    """The flash partition's block device: the ESP32 port's frozen flashbdev module has it as
    `bdev` (stock MicroPython's and the Tafel image's alike); the simulator puts its flash there."""
    try:
        from flashbdev import bdev
    except ImportError:
        bdev = None
    if bdev is None:
        raise wire.WireError("unsupported", "no flash partition")
    return bdev


def start(link, r, dev=None, progress=None):
    """The FLASH_READ request (body: [varint first block]): starts the stream on `link`; the OK body
    (varint first, varint blocks, varint block size). progress(first, block, blocks): the blocks
    before `block` are sent (called with block = first as the read begins)."""
    first = r.varint() if r.pos < len(r.data) else 0
    r.end()
    dev = dev if dev is not None else device()
    blocks = dev.ioctl(_IOCTL_BLOCK_COUNT, 0)
    size = dev.ioctl(_IOCTL_BLOCK_SIZE, 0)
    if first > blocks:
        raise wire.WireError("bad_request", "block %d of %d" % (first, blocks))
    link.stream(frames(dev, first, blocks, size, piece_size(link.t.chunk, size), progress))
    return varints(first, blocks, size)


def piece_size(chunk, size):
    """The bytes of one FLASH_DATA: the largest power of two within the link's chunk that divides the block."""
    piece = 1
    while piece * 2 <= chunk and piece * 2 <= size:
        piece *= 2
    while size % piece:  # a block size that is no power of two (the ESP32's is 4096)
        piece //= 2
    return piece


def frames(dev, first, blocks, size, piece, progress=None):
    """Yields (kind, body): FLASH_DATA per piece that is not erased, or one empty per block without
    any; then FLASH_DONE (varint first, varint blocks, u32 LE CRC32 of blocks first .. blocks - 1)."""
    if progress is not None:
        progress(first, first, blocks)
    buf = bytearray(piece)
    erased = b"\xff" * piece
    crc = 0
    for block in range(first, blocks):
        sent = False
        for offset in range(0, size - piece + 1, piece):
            dev.readblocks(block, buf, offset)
            crc = crc32(buf, crc)
            if buf != erased:
                body = bytearray()
                put_varint(body, block)
                put_varint(body, offset)
                body.extend(buf)
                sent = True
                yield wire.FLASH_DATA, body
        if not sent:
            yield wire.FLASH_DATA, varints(block, 0)
        if progress is not None:
            progress(first, block + 1, blocks)
    body = varints(first, blocks)
    body.extend(struct.pack("<I", crc & 0xFFFFFFFF))
    yield wire.FLASH_DONE, body
