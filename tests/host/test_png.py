# The PNG writer, checked by decoding its files with a small reader (chunks, CRCs, zlib, filter 0 rows).
import struct
import zlib

import pytest

import pngread
from tafel_host import png


def read_png(data):
    """(width, height, depth, rows) of a greyscale PNG whose rows all use filter 0."""
    chunks = pngread.chunks(data)
    kinds = [kind for kind, _ in chunks]
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND" and b"IDAT" in kinds
    width, height, depth, colour, method, filtering, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (colour, method, filtering, interlace) == (0, 0, 0, 0)
    raw = zlib.decompress(b"".join(payload for kind, payload in chunks if kind == b"IDAT"))
    stride = (width * depth + 7) // 8
    assert len(raw) == height * (stride + 1)
    rows = []
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        assert line[0] == 0  # filter type none
        if depth == 8:
            rows.append(list(line[1:]))
        else:
            rows.append([(line[1 + x // 8] >> (7 - x % 8)) & 1 for x in range(width)])
    return width, height, depth, rows


def test_eight_bit_round_trip():
    rows = [[0, 128, 255], [7, 8, 9]]
    assert read_png(png.encode(3, 2, rows)) == (3, 2, 8, rows)


def test_one_bit_with_a_row_that_is_not_a_whole_byte():
    rows = [[x % 3 == 0 for x in range(11)], [1] * 11, [0] * 11]
    rows = [[int(v) for v in row] for row in rows]
    assert read_png(png.encode(11, 3, rows, depth=1)) == (11, 3, 1, rows)


def test_scale_repeats_each_pixel_as_a_square():
    width, height, depth, rows = read_png(png.encode(2, 2, [[0, 255], [255, 0]], scale=3))
    assert (width, height, depth) == (6, 6, 8)
    assert rows[0] == rows[1] == rows[2] == [0, 0, 0, 255, 255, 255]
    assert rows[3] == rows[5] == [255, 255, 255, 0, 0, 0]
    _, _, _, bits = read_png(png.encode(3, 1, [[1, 0, 1]], depth=1, scale=4))
    assert bits == [[1] * 4 + [0] * 4 + [1] * 4] * 4


def test_write_puts_the_file_on_disk(tmp_path):
    path = tmp_path / "one.png"
    size = png.write(path, 1, 1, [[200]], scale=2)
    assert path.stat().st_size == size
    assert read_png(path.read_bytes()) == (2, 2, 8, [[200, 200], [200, 200]])


@pytest.mark.parametrize("call", [
    lambda: png.encode(2, 1, [[0, 256]]),
    lambda: png.encode(2, 1, [[0, 2]], depth=1),
    lambda: png.encode(2, 1, [[0, -1]]),
    lambda: png.encode(2, 2, [[0, 0]]),
    lambda: png.encode(2, 1, [[0, 0, 0]]),
    lambda: png.encode(1, 1, [[0]], depth=4),
    lambda: png.encode(1, 1, [[0]], scale=0),
    lambda: png.encode(0, 1, [[]]),
])
def test_bad_input_is_refused(call):
    with pytest.raises(ValueError):
        call()
