# Test helper: the chunks of a PNG file, each CRC checked (no image library needed).
import struct
import zlib


def chunks(data):
    """[(kind, payload)] of a PNG file; asserts the signature, every CRC and the exact length."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    found, pos = [], 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        payload = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + payload) & 0xFFFFFFFF == crc, kind
        found.append((kind, payload))
        pos += 12 + length
    assert pos == len(data)
    return found
