# tafel flash writes a merged firmware image as its three parts: the NVS partition between them is kept.
import hashlib

import pytest

from tafel_host.update import esp_image
from tafel_host.update.flash import esptool_commands, image_pieces


def app_image(segments, hashed=True, tail=None):
    # An ESP image as ESP-IDF writes it: header, extended header (hash appended at byte 23),
    # segments, zeros to 16 bytes with the checksum last, the SHA-256.
    body = bytearray([0xE9, len(segments), 2, 0x20]) + (0x40080000).to_bytes(4, "little")
    ext = bytearray(16)
    ext[15] = 1 if hashed else 0
    body += ext
    for address, data in segments:
        body += address.to_bytes(4, "little") + len(data).to_bytes(4, "little") + data
    body += bytes(((len(body) + 16) & ~15) - len(body) - 1) + b"\x5a"
    if hashed:
        body += hashlib.sha256(body).digest()
    if tail is not None:  # the digest's last bytes as given (a digest may end in 0xFF)
        body[-len(tail):] = tail
    return bytes(body)


def entry(kind, subtype, offset, size, label):
    return (b"\xaa\x50" + bytes([kind, subtype]) + offset.to_bytes(4, "little") + size.to_bytes(4, "little")
            + label.encode().ljust(16, b"\0") + bytes(4))


TABLE = (entry(1, 2, 0x9000, 0x6000, "nvs") + entry(1, 1, 0xF000, 0x1000, "phy_init")
         + entry(0, 0, 0x10000, 0x1F0000, "factory")).ljust(0xC00, b"\xff")


def merged(base, boot, app, table=TABLE, app_at=0x10000):
    # As MicroPython's ports/esp32/makeimg.py lays it out: 0xFF up to each part's offset.
    out = bytearray(boot)
    out += b"\xff" * (0x8000 - base - len(out)) + table
    out += b"\xff" * (app_at - base - len(out)) + app
    return bytes(out)


BOOT = app_image([(0x3FFF0000, bytes(range(256)) * 8), (0x40078000, b"\x11" * 3000)], tail=b"\xff\xff")
APP = app_image([(0x3F400020, b"\x22" * 70000), (0x40080000, b"\x33" * 9000), (0x400D0020, b"\x44" * 5)])


@pytest.mark.parametrize("base", [0x1000, 0x0])
def test_the_three_parts_come_out_whole_and_nothing_between_them(base):
    parts = esp_image.split(merged(base, BOOT, APP), base)
    assert parts == [(base, BOOT), (0x8000, TABLE), (0x10000, APP)]
    nvs = esp_image.nvs_range(merged(base, BOOT, APP), base)
    assert nvs == (0x9000, 0x6000)
    for address, data in parts:  # no part reaches into the NVS partition or phy_init
        assert address + len(data) <= 0x9000 or address >= 0x10000


def test_the_bootloaders_digest_is_kept_even_where_it_ends_in_ff():
    assert BOOT.endswith(b"\xff\xff")
    assert esp_image.split(merged(0x1000, BOOT, APP), 0x1000)[0][1] == BOOT


def test_an_image_laid_out_otherwise_is_refused_so_it_is_written_whole():
    image = merged(0x1000, BOOT, APP)
    with pytest.raises(esp_image.ImageError):  # something in the padding (a file system image, say)
        esp_image.split(image[:0x9100 - 0x1000] + b"data" + image[0x9104 - 0x1000:], 0x1000)
    with pytest.raises(esp_image.ImageError):  # no partition table where ESP-IDF puts it
        esp_image.split(image.replace(TABLE, b"\xff" * len(TABLE)), 0x1000)
    with pytest.raises(esp_image.ImageError):  # cut short
        esp_image.split(image[:-100], 0x1000)
    with pytest.raises(esp_image.ImageError):  # an app image alone
        esp_image.split(APP, 0x1000)


def test_tafel_flash_writes_the_parts_in_one_esptool_call(tmp_path):
    image = tmp_path / "ESP32_GENERIC.bin"
    image.write_bytes(merged(0x1000, BOOT, APP))
    pieces, note = image_pieces(image, "esp32", tmp_path)
    assert "NVS at 0x9000 (24 KB) is kept" in note
    assert [(a, p.read_bytes()) for a, p in pieces] == [(0x1000, BOOT), (0x8000, TABLE), (0x10000, APP)]
    write = esptool_commands("esp32", "P", pieces)[-1]
    assert write[write.index("write-flash") + 1:] == ["0x1000", str(pieces[0][1]), "0x8000", str(pieces[1][1]),
                                                      "0x10000", str(pieces[2][1])]


def test_an_image_that_cannot_be_split_is_written_whole_and_says_what_that_costs(tmp_path):
    image = tmp_path / "odd.bin"
    image.write_bytes(APP)
    pieces, note = image_pieces(image, "esp32", tmp_path)
    assert pieces == [(0x1000, image)] and "erases the NVS partition" in note
