# The parts of a merged ESP32 firmware image, so `tafel flash` writes them and nothing between them.
#
# MicroPython's firmware.bin (ports/esp32/makeimg.py) is three images laid out
# as they lie in flash, from the bootloader's offset (0x1000 on the ESP32 and
# ESP32-S2, 0 on the newer chips): the bootloader, the partition table at
# 0x8000, the application at the first app partition (0x10000), with 0xFF
# between them. Written whole, the padding erases what lies between: the NVS
# partition at 0x9000 (ESP-IDF's Wi-Fi calibration and the copy of the board
# profile recovery mode reads, firmware/recovery/profile.py) and phy_init.
# Written as its three parts, esptool erases only the sectors each part covers.
#
# The formats: ESP-IDF's app image (esptool's image format: a 24-byte header
# with the segment count at byte 1 and "hash appended" at byte 23, segments of
# an 8-byte header and their bytes, zero padding to 16 bytes with the checksum
# in the last byte, then the SHA-256 if appended) and its partition table
# (32-byte entries from 0xAA 0x50: type, subtype, offset, size, label, flags).
from ..lang import say

TABLE_AT = 0x8000  # CONFIG_PARTITION_TABLE_OFFSET, ESP-IDF's default (Tafel's board keeps it)
TABLE_SIZE = 0xC00  # the partition table's sector, as gen_esp32part.py writes it (0xFF after the entries)
IMAGE_MAGIC = 0xE9
ENTRY_MAGIC = b"\xaa\x50"
APP, DATA = 0x00, 0x01  # partition types
NVS = 0x02  # data subtype


class ImageError(Exception):
    """The file is not a merged image laid out as makeimg.py lays it out."""


def image_length(data, start):
    """Bytes of the ESP image (bootloader or application) at data[start:]."""
    if start + 24 > len(data) or data[start] != IMAGE_MAGIC:
        raise ImageError(say("img_no_image", start))
    pos = start + 24
    for _ in range(data[start + 1]):
        if pos + 8 > len(data):
            raise ImageError(say("img_cut_short", start))
        pos += 8 + int.from_bytes(data[pos + 4:pos + 8], "little")
    length = (pos - start + 16) & ~15  # zeros to a 16-byte boundary, the checksum its last byte
    if data[start + 23] == 1:
        length += 32  # the SHA-256 of all of it
    if start + length > len(data):
        raise ImageError(say("img_cut_short", start))
    return length


def partitions(table):
    """[(type, subtype, offset, size, label)] of a partition table's bytes."""
    out = []
    for at in range(0, len(table) - 31, 32):
        entry = table[at:at + 32]
        if entry[:2] != ENTRY_MAGIC:
            break  # 0xEBEB (the table's MD5) or 0xFF: the end
        out.append((entry[2], entry[3], int.from_bytes(entry[4:8], "little"),
                    int.from_bytes(entry[8:12], "little"), entry[12:28].rstrip(b"\0").decode("ascii", "replace")))
    return out


def split(data, base):
    """[(flash address, bytes)] of the bootloader, the partition table and the application in a merged
    image that starts at flash address `base`; ImageError if it is laid out otherwise (then only
    writing it whole is safe), or if anything but padding lies between the three."""
    at = TABLE_AT - base
    table = data[at:at + TABLE_SIZE]
    found = partitions(table)
    apps = sorted(p[2] for p in found if p[0] == APP)
    if not apps:
        raise ImageError(say("img_no_table", TABLE_AT))
    boot_len = image_length(data, 0)
    if boot_len > at:
        raise ImageError(say("img_bootloader"))
    app_at = apps[0] - base
    app_len = image_length(data, app_at)
    parts = [(base, data[:boot_len]), (TABLE_AT, table), (apps[0], data[app_at:app_at + app_len])]
    covered = [(0, boot_len), (at, at + len(table)), (app_at, app_at + app_len)]
    gaps = [(covered[i][1], covered[i + 1][0]) for i in range(2)] + [(app_at + app_len, len(data))]
    for lo, hi in gaps:
        if data[lo:hi].strip(b"\xff"):
            raise ImageError(say("img_padding", lo + base, hi + base))
    return parts


def nvs_range(data, base):
    """(offset, size) of the NVS partition the image's table names, or None."""
    for kind, subtype, offset, size, _ in partitions(data[TABLE_AT - base:TABLE_AT - base + TABLE_SIZE]):
        if kind == DATA and subtype == NVS:
            return offset, size
    return None
