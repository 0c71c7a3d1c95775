# Reading and verifying a bundle on the device (lib/tafel/bundle/reader.py); both interpreters.
#
# FIXTURE is a real bundle (two files, one stored raw, one deflated; version 1.2.3, min-boot 1)
# signed with the test key below; test_fixture_is_what_the_builder_makes regenerates it on
# CPython with host_tools/update/bundle_build.pack and fails if the format has moved on (then paste
# the new hex it prints). Under MicroPython this checks the deflate module's path, under
# CPython the zlib one.
import io
from binascii import unhexlify

import pytest

from tafel.bundle import bounded
from tafel.bundle import manifest as fmt
from tafel.bundle import reader as bundle
from tafel.bundle.errors import UpdateError

SECRET = bytes(range(100, 132))  # test key only: signs nothing but this fixture
PUBLIC = unhexlify("0bbc346a57667c380120bd9c7fd7e51d2c5fdfea37cd2f5bf405b2c6bf6f2d78")
OTHER = unhexlify("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")  # RFC 8032 TEST 1
MAIN = b"print('tafel')\n"
WORDS = b"tafel " * 40 + b"\n"
FIXTURE = unhexlify(
    "544146454c555044010000fb5540ee3de4e0952261707020312e322e330a6d696e2d626f6f7420310a646f776e677261"
    "6465206e6f0a6d707920360a77696e646f772031300a66696c657320320a66696c652031643162666136653934623339"
    "356366333638653837653363656336396665313037343661393635353264343738313030366438633237643737313562"
    "63396220323431206465666c617465203138206c69622f746166656c2f776f7264732e7478740a66696c652030643538"
    "336163343462343636386132353838396461313964656361663331646463363739613566613234313933643831623238"
    "38653965346333393565653220313520726177203135206d61696e2e70790af9b31003eee6005e8dcf1896e0575cf083"
    "62a8fafc35bc79aa3065be55dd30ff464e0c7fb5385d0bed1d6d8371ee68ef1bda6919428129926a57d5e8f52c5c0628"
    "cf2b494c4bcd512819312417005d0256eb7072696e742827746166656c27290a"
)
WORDS_AT = len(FIXTURE) - 15 - 18  # the deflated body, then main.py's 15 raw bytes


def refused(data, keys=(PUBLIC,), running="1.0.0", boot=1, mpy=None, max_bytes=None):
    with pytest.raises(UpdateError) as info:
        bundle.verify_bundle(io.BytesIO(data), keys, running, boot, mpy, max_bytes)
    return info.value.key, info.value.detail


def flip(data, index, bit=0):
    changed = bytearray(data)
    changed[index] ^= 1 << bit
    return bytes(changed)


class Sink:
    # What a stager hands verify_bundle: sink(entry) -> a writable stream, closed after the file.
    def __init__(self):
        self.files = {}
        self.closed = []

    def __call__(self, entry):
        out = Out(entry.path, self.closed)
        self.files[entry.path] = out
        return out


class Out:
    def __init__(self, path, closed):
        self.path = path
        self.closed = closed
        self.data = io.BytesIO()

    def write(self, data):
        return self.data.write(data)

    def close(self):
        self.closed.append(self.path)

    def getvalue(self):
        return self.data.getvalue()


def test_fixture_verifies_and_hands_out_the_files():
    sink = Sink()
    m = bundle.verify_bundle(io.BytesIO(FIXTURE), [OTHER, PUBLIC], "1.2.2", 1, None, None, sink)
    assert (m.version, m.min_boot, m.allow_downgrade, m.mpy, m.window) == ("1.2.3", 1, False, 6, 10)
    assert [(e.path, e.encoding) for e in m.files] == [("lib/tafel/words.txt", "deflate"), ("main.py", "raw")]
    assert m.total_size == len(FIXTURE)
    assert sink.files["main.py"].getvalue() == MAIN
    assert sink.files["lib/tafel/words.txt"].getvalue() == WORDS
    assert sink.closed == ["lib/tafel/words.txt", "main.py"]


def test_step_by_step_as_a_stager_would():
    stream = io.BytesIO(FIXTURE)
    m = bundle.read_manifest(stream, [PUBLIC])
    bundle.check_install(m, "1.2.2", 1, 6)
    buf = bytearray(bundle.CHUNK)
    for entry in m.files:
        assert stream.tell() == entry.offset
        out = io.BytesIO()
        bundle.verify_file(stream, entry, m.window, out, buf)
        assert out.getvalue() == (MAIN if entry.path == "main.py" else WORDS)
    bundle.expect_end(stream)


class PyStream:
    # A stream in Python (a transport, say): the inflater cannot read it in C. step: most bytes per read.
    def __init__(self, data, step=1 << 30):
        self.inner = io.BytesIO(data)
        self.step = step

    def read(self, n=-1):
        return self.inner.read(min(n, self.step) if n >= 0 else self.step)

    def readinto(self, buf):
        data = self.read(len(buf))
        buf[:len(data)] = data
        return len(data)


def test_bodies_from_a_python_stream_inflate_from_ram():
    sink = Sink()
    bundle.verify_bundle(PyStream(FIXTURE), [PUBLIC], "1.2.2", 1, None, None, sink)
    assert sink.files["lib/tafel/words.txt"].getvalue() == WORDS
    assert refused_from(PyStream(flip(FIXTURE, WORDS_AT + 5)))[0] == "bad_file"
    assert refused_from(PyStream(FIXTURE[:WORDS_AT + 10])) == ("truncated", "lib/tafel/words.txt")


def test_large_bodies_from_a_python_stream_go_through_the_bounded_reader():
    saved = bounded.INLINE
    bounded.INLINE = 0  # every compressed body through bounded.Bounded, as one above INLINE bytes would
    try:
        sink = Sink()
        bundle.verify_bundle(PyStream(FIXTURE), [PUBLIC], "1.2.2", 1, None, None, sink)
        assert sink.files["lib/tafel/words.txt"].getvalue() == WORDS
        assert refused_from(PyStream(flip(FIXTURE, WORDS_AT + 5)))[0] == "bad_file"
        assert refused_from(PyStream(FIXTURE[:WORDS_AT + 10])) == ("truncated", "lib/tafel/words.txt")
    finally:
        bounded.INLINE = saved


def refused_from(stream):
    with pytest.raises(UpdateError) as info:
        bundle.verify_bundle(stream, [PUBLIC], "1.0.0", 1, None)
    return info.value.key, info.value.detail


def test_signature_and_keys():
    assert refused(FIXTURE, keys=()) == ("foreign_key", "5540ee3de4e09522")
    assert refused(FIXTURE, keys=(OTHER,)) == ("foreign_key", "5540ee3de4e09522")
    for index in (30, 100, 150, 200, 240):  # manifest bytes: fields of every kind
        assert refused(flip(FIXTURE, index)) == ("bad_signature", None), index
    for index in range(fmt.HEADER_SIZE + 251, fmt.HEADER_SIZE + 251 + 64, 9):  # the signature
        assert refused(flip(FIXTURE, index)) == ("bad_signature", None), index


def test_header_changes():
    assert refused(flip(FIXTURE, 0)) == ("not_bundle", None)
    assert refused(flip(FIXTURE, 8)) == ("format", 0)
    assert refused(flip(FIXTURE, 9)) == ("format", 1)
    assert refused(flip(FIXTURE, 11)) == ("bad_signature", None)  # manifest length 250 instead of 251
    assert refused(flip(FIXTURE, 10, 7)) == ("too_large", (0x80FB, fmt.MAX_MANIFEST))
    assert refused(flip(FIXTURE, 12))[0] == "foreign_key"


def test_bodies():
    assert refused(flip(FIXTURE, WORDS_AT))[0] == "bad_file"  # the zlib header
    assert refused(flip(FIXTURE, WORDS_AT + 9)) in (
        ("bad_file", ("lib/tafel/words.txt", "inflate")), ("bad_file", ("lib/tafel/words.txt", "sha256")),
        ("bad_file", ("lib/tafel/words.txt", "size")))
    assert refused(flip(FIXTURE, WORDS_AT + 17))[0] == "bad_file"  # the adler32
    assert refused(flip(FIXTURE, len(FIXTURE) - 1)) == ("bad_file", ("main.py", "sha256"))


def test_truncated_and_trailing():
    assert refused(b"") == ("truncated", "header")
    assert refused(FIXTURE[:10]) == ("truncated", "header")
    assert refused(FIXTURE[:100]) == ("truncated", "manifest")
    assert refused(FIXTURE[:fmt.HEADER_SIZE + 251 + 10]) == ("truncated", "signature")
    assert refused(FIXTURE[:WORDS_AT + 3]) == ("truncated", "lib/tafel/words.txt")
    assert refused(FIXTURE[:-1]) == ("truncated", "main.py")
    assert refused_from(PyStream(FIXTURE[:100])) == ("truncated", "manifest")  # held in RAM, not re-read
    assert refused_from(PyStream(FIXTURE[:fmt.HEADER_SIZE + 251 + 10])) == ("truncated", "signature")
    assert refused(FIXTURE + b"\0") == ("trailing_data", None)
    assert refused(FIXTURE, max_bytes=len(FIXTURE) - 1) == ("too_large", (len(FIXTURE), len(FIXTURE) - 1))


def test_install_rules():
    assert refused(FIXTURE, running="1.2.3") == ("same_version", "1.2.3")
    assert refused(FIXTURE, running="1.10.0") == ("downgrade", ("1.2.3", "1.10.0"))
    assert refused(FIXTURE, boot=0) == ("needs_boot", (1, 0))
    assert refused(FIXTURE, mpy=5) == ("wrong_mpy", (6, 5))
    bundle.verify_bundle(io.BytesIO(FIXTURE), [PUBLIC], None, 1, 6)  # no running version: no version rule


def test_a_stream_that_hands_out_little_at_a_time():
    m = bundle.verify_bundle(PyStream(FIXTURE, 7), [PUBLIC], "1.0", 1, None)
    assert m.version == "1.2.3"


def test_a_body_longer_than_its_zlib_stream_is_refused():
    # The manifest signed with a body one byte longer than the zlib stream in it: every path
    # (in place from BytesIO, from RAM, through the bounded reader) notices the unused byte.
    m = bundle.read_manifest(io.BytesIO(FIXTURE), [PUBLIC])
    words = m.file("lib/tafel/words.txt")
    longer = fmt.FileEntry(words.path, words.size, words.sha256, words.encoding, words.stored + 1, words.offset)
    body = FIXTURE[words.offset:words.offset + words.stored] + b"\0"
    saved = bounded.INLINE
    try:
        for stream, inline in ((io.BytesIO(body), 4096), (PyStream(body), 4096), (PyStream(body), 0)):
            bounded.INLINE = inline
            with pytest.raises(UpdateError) as info:
                bundle.verify_file(stream, longer, m.window)
            assert (info.value.key, info.value.detail) == ("bad_file", (words.path, "length"))
        bundle.verify_file(io.BytesIO(body), words, m.window)  # the right length passes
    finally:
        bounded.INLINE = saved


def test_file_matches():
    import os
    import random

    path = "/tmp/tafel-file-matches-%d.txt" % random.getrandbits(30)
    m = bundle.read_manifest(io.BytesIO(FIXTURE), [PUBLIC])
    entry = m.file("lib/tafel/words.txt")
    try:
        with open(path, "wb") as f:
            f.write(WORDS)
        assert bundle.file_matches(path, entry) is True
        with open(path, "wb") as f:
            f.write(WORDS[:-1] + b"!")
        assert bundle.file_matches(path, entry) is False
        with open(path, "wb") as f:
            f.write(WORDS + b"more")
        assert bundle.file_matches(path, entry) is False
    finally:
        os.remove(path)
    assert bundle.file_matches(path, entry) is False  # no such file


def test_fixture_is_what_the_builder_makes():
    pytest.importorskip("cryptography")
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from tafel_host.update import bundle_build, keys

    key = Ed25519PrivateKey.from_private_bytes(SECRET)
    assert keys.public_bytes(key) == PUBLIC
    data = bundle_build.pack([("main.py", MAIN), ("lib/tafel/words.txt", WORDS)], "1.2.3", key, 6, min_boot=1)
    assert data == FIXTURE, "the format changed: new FIXTURE hex:\n" + data.hex()
