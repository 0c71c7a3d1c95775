# The bundle format (lib/tafel/bundle/manifest.py): header, manifest text, versions; both interpreters.
# The laptop's writer (host_tools/update/bundle_build.encode_manifest) is checked against the same text
# in test_the_laptops_writer_makes_this_text (CPython only).
import struct

import pytest

from tafel.bundle import manifest as fmt
from tafel.bundle.errors import UpdateError

SHA_A = bytes(range(32))
SHA_B = bytes(range(32, 64))
FILES = [
    ("main.py", 15, SHA_A, "raw", 15),
    ("lib/tafel/game.mpy", 5994, SHA_B, "deflate", 4100),
]


def hexof(data):
    return "".join("%02x" % b for b in data)


def text(version="0.2.0", min_boot=1, downgrade="no", mpy=6, window=10, files=FILES):
    # The manifest as the format describes it (files sorted by path), written out here by hand.
    lines = ["app %s" % version, "min-boot %d" % min_boot, "downgrade %s" % downgrade, "mpy %d" % mpy,
             "window %d" % window, "files %d" % len(files)]
    for path, size, sha, encoding, stored in sorted(files):
        lines.append("file %s %d %s %d %s" % (hexof(sha), size, encoding, stored, path))
    return ("\n".join(lines) + "\n").encode()


def good():
    return text()


def pack_header(length, kid):
    return struct.pack(fmt.HEADER_FORMAT, fmt.MAGIC, fmt.FORMAT, 0, length, kid)


def parse(raw):
    return fmt.parse(raw, b"K" * 8, 1000)


def bad_line(raw):
    with pytest.raises(UpdateError) as info:
        parse(raw)
    assert info.value.key == "bad_manifest"
    return info.value.detail


def test_encode_then_parse():
    raw = good()
    assert raw.startswith(b"app 0.2.0\nmin-boot 1\ndowngrade no\nmpy 6\nwindow 10\nfiles 2\nfile 2021")
    m = parse(raw)
    assert (m.version, m.min_boot, m.allow_downgrade, m.mpy, m.window) == ("0.2.0", 1, False, 6, 10)
    assert [e.path for e in m.files] == ["lib/tafel/game.mpy", "main.py"]  # sorted
    game, main = m.files
    assert (game.size, game.sha256, game.encoding, game.stored, game.offset) == (5994, SHA_B, "deflate", 4100, 1000)
    assert (main.size, main.sha256, main.encoding, main.stored, main.offset) == (15, SHA_A, "raw", 15, 5100)
    assert m.total_size == 1000 + 4100 + 15
    assert m.files_size == 5994 + 15
    assert m.key_id == b"K" * 8 and m.raw == raw and m.body_start == 1000
    assert m.file("main.py") == main and m.file("nope.py") is None
    assert len(m.files) == 2 and m.files[-1] == main and list(m.files) == [game, main]


def test_many_files_each_at_its_place():
    # Files keeps its line ends and body offsets in arrays of a few dozen entries (no one block of
    # heap grows with the bundle): every entry of a manifest with more files than one array holds,
    # read by index (also from the end), by path and in a loop, has its own line and offset.
    many = [("m/f%03d.mpy" % i, 100 + i, bytes([i]) * 32, "deflate" if i % 2 else "raw", 100 + i - (i % 2) * 7)
            for i in range(77)]
    m = parse(text(files=many))
    assert len(m.files) == 77
    at = 1000
    for i, (path, size, sha, encoding, stored) in enumerate(many):
        entry = m.files[i]
        assert (entry.path, entry.size, entry.sha256, entry.encoding, entry.stored, entry.offset) == (
            path, size, sha, encoding, stored, at)
        assert m.file(path) == entry and m.files[i - 77] == entry
        at += stored
    assert list(m.files) == [m.files[i] for i in range(77)]
    assert m.total_size == at and m.files_size == sum(f[1] for f in many)


def test_downgrade_flag():
    m = parse(text("0.1.0", 0, "yes"))
    assert m.allow_downgrade is True and m.version == "0.1.0"


def test_every_line_is_checked():
    raw = good()
    assert bad_line(raw.replace(b"app 0.2.0", b"app 0.2.x")) == 1
    assert bad_line(raw.replace(b"app 0.2.0", b"app  0.2.0")) == 1
    assert bad_line(raw.replace(b"min-boot 1", b"min-boot 01")) == 2
    assert bad_line(raw.replace(b"min-boot 1", b"min-boot -1")) == 2
    assert bad_line(raw.replace(b"downgrade no", b"downgrade No")) == 3
    assert bad_line(raw.replace(b"mpy 6", b"mpy 6.3")) == 4
    assert bad_line(raw.replace(b"window 10", b"window 15")) == 5  # more than a device inflates
    assert bad_line(raw.replace(b"window 10", b"window 8")) == 5
    assert bad_line(raw.replace(b"files 2", b"files 3")) == 9  # the missing third file line
    assert bad_line(raw.replace(b"files 2", b"files 1")) == 6
    assert bad_line(raw.replace(b"app ", b"version ")) == 1
    assert bad_line(raw[:-1]) is not None  # no final newline
    assert bad_line(raw + b"\n") is not None  # an empty line more


def test_file_lines_are_checked():
    raw = good()
    line = raw.split(b"\n")[6]  # lib/tafel/game.mpy
    def with_line(new):
        return raw.replace(line, new)
    parts = line.split(b" ")
    hex_sha = parts[1]
    assert bad_line(with_line(line.replace(hex_sha, hex_sha.upper()))) == 7
    assert bad_line(with_line(line.replace(hex_sha, hex_sha[:-1]))) == 7
    assert bad_line(with_line(line.replace(b" deflate ", b" zlib "))) == 7
    assert bad_line(with_line(line.replace(b" 5994 ", b" 05994 "))) == 7
    assert bad_line(with_line(line.replace(b" 4100 ", b" 0 "))) == 7
    assert bad_line(with_line(line + b" extra")) == 7
    for path in (b"/lib/game.mpy", b"lib//game.mpy", b"lib/../game.mpy", b"./game.mpy", b"lib/ga me.mpy",
                 b"lib/g\xc3\xa4me.mpy", b"lib/" + b"x" * 70 + b".mpy", b"lib/game.mpy/"):
        assert bad_line(with_line(line.replace(b"lib/tafel/game.mpy", path))) == 7, path
    # raw files store exactly their bytes
    main = raw.split(b"\n")[7]
    assert bad_line(raw.replace(main, main.replace(b" raw 15 ", b" raw 14 "))) == 8


def test_paths_must_ascend():
    raw = good()
    lines = raw.split(b"\n")
    lines[6], lines[7] = lines[7], lines[6]
    assert bad_line(b"\n".join(lines)) == 8
    one = text(files=FILES[:1]).split(b"\n")
    doubled = b"\n".join(one[:5] + [b"files 2", one[6], one[6], b""])
    assert bad_line(doubled) == 8


def test_the_laptops_writer_makes_this_text():
    pytest.importorskip("cryptography")  # the host tools need it; skips under MicroPython
    from tafel_host.update.bundle_build import BundleProblem, encode_manifest
    from tafel_host.update.bundle_build import pack_header as host_header

    assert encode_manifest("0.2.0", 1, False, 6, 10, FILES) == good()
    assert encode_manifest("0.1.0", 0, True, 6, 10, FILES) == text("0.1.0", 0, "yes")
    with pytest.raises(BundleProblem, match="1.x"):
        encode_manifest("1.x", 0, False, 6, 10, FILES)
    with pytest.raises(BundleProblem, match="line 7"):
        encode_manifest("1.0", 0, False, 6, 10, [("../x.py", 1, SHA_A, "raw", 1)])
    public = bytes(range(32))
    assert host_header(300, public) == pack_header(300, fmt.key_id(public))


def test_header_round_trip_and_refusals():
    header = pack_header(300, b"12345678")
    assert len(header) == fmt.HEADER_SIZE and header.startswith(fmt.MAGIC)
    assert fmt.unpack_header(header) == (300, b"12345678")
    def key_of(data):
        with pytest.raises(UpdateError) as info:
            fmt.unpack_header(data)
        return info.value.key, info.value.detail
    assert key_of(b"PK\x03\x04" + header[4:]) == ("not_bundle", None)
    assert key_of(header[:8] + b"\x02" + header[9:]) == ("format", 2)
    assert key_of(header[:9] + b"\x01" + header[10:]) == ("format", 1)
    assert key_of(pack_header(fmt.MAX_MANIFEST + 1, b"12345678")) == ("too_large", (fmt.MAX_MANIFEST + 1, fmt.MAX_MANIFEST))
    assert key_of(header[:11]) == ("truncated", "header")
    assert key_of(b"") == ("truncated", "header")
    assert key_of(b"GIF89a") == ("not_bundle", None)


def test_signed_message_is_header_and_manifest_digest():
    import hashlib

    header = pack_header(5, b"12345678")
    digest = hashlib.sha256(b"hello").digest()
    assert fmt.signed_message(header, digest) == header + digest
    assert len(fmt.signed_message(header, digest)) == 52


def test_versions():
    assert fmt.parse_version("0.2.10") == (0, 2, 10)
    assert fmt.compare_versions("0.2.10", "0.2.9") == 1
    assert fmt.compare_versions("0.2.9", "0.2.10") == -1
    assert fmt.compare_versions("1.0", "1.0.0") == 0
    assert fmt.compare_versions("1.0.1", "1.0") == 1
    for bad in ("", "1.", ".1", "1..2", "v1.0", "1.0-rc1", "1.2.3.4.5", "01.2", "1.2 "):
        with pytest.raises(ValueError):
            fmt.parse_version(bad)


def test_key_id_is_the_start_of_the_keys_sha256():
    import hashlib

    key = bytes(range(32))
    assert fmt.key_id(key) == hashlib.sha256(key).digest()[:8]
