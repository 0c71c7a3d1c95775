# SHA-512 in Python (lib/tafel/bundle/sha512.py): FIPS 180-2/180-4 example vectors and every padding case.
# Runs under pytest (CPython) and tests/mpy_runner.py (MicroPython): plain asserts, no fixtures.
import hashlib
import sys

import pytest

from tafel.bundle.sha512 import sha512

# FIPS 180-2, appendix C (the examples NIST publishes with the standard), and the empty message.
VECTORS = (
    (b"abc",
     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
     "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
    (b"",
     "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
     "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
    (b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
     "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445"),
    (b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
     b"ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
     "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
     "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"),
)
MILLION_A = ("e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
             "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
# SHA-256 over the SHA-512 digests of pattern(0) .. pattern(300), computed with CPython's hashlib:
# every tail length of the last block, one- and two-block paddings (111/112 and 239/240 bytes).
LENGTHS_0_TO_300 = "f3a878b16610912d9a238688c52fc5f29f8fe30d2c5656e7e77dcf747171648d"


def pattern(n):
    return bytes((i * 7 + n) & 0xFF for i in range(n))


def test_fips_vectors():
    for message, expected in VECTORS:
        assert sha512(message).hexdigest() == expected, message


def test_million_a():
    # 1,000,000 bytes: about 3 s on CPython, 6-12 s on the unix port, so CPython only.
    if sys.implementation.name == "micropython":
        pytest.skip("one million bytes take too long on the unix port; CPython runs it")
    hasher = sha512()
    block = b"a" * 1000
    for _ in range(1000):
        hasher.update(block)
    assert hasher.hexdigest() == MILLION_A


def test_every_length_up_to_300():
    acc = hashlib.sha256()
    for n in range(301):
        acc.update(sha512(pattern(n)).digest())
    assert "".join("%02x" % b for b in acc.digest()) == LENGTHS_0_TO_300


def test_pieces_give_the_same_digest():
    message = pattern(300)
    whole = sha512(message).digest()
    for cut in (0, 1, 63, 64, 111, 112, 127, 128, 129, 200, 256, 299, 300):
        hasher = sha512(message[:cut])
        hasher.update(message[cut:])
        assert hasher.digest() == whole, cut
    hasher = sha512()
    for start in range(0, 300, 7):
        hasher.update(message[start:start + 7])
    assert hasher.digest() == whole


def test_bytes_like_inputs():
    message = pattern(200)
    whole = sha512(message).digest()
    assert sha512(bytearray(message)).digest() == whole
    assert sha512(memoryview(message)).digest() == whole
    hasher = sha512()
    hasher.update(memoryview(message)[:150])
    hasher.update(bytearray(message[150:]))
    assert hasher.digest() == whole


def test_digest_twice_and_update_after():
    hasher = sha512(b"ab")
    first = hasher.digest()
    assert hasher.digest() == first
    hasher.update(b"c")
    assert hasher.hexdigest() == VECTORS[0][1]
    assert len(first) == 64 and sha512.digest_size == 64 and sha512.block_size == 128


def test_matches_hashlib_where_there_is_one():
    reference = getattr(hashlib, "sha512", None)
    if reference is None:
        pytest.skip("no hashlib.sha512 here (MicroPython): the fixed vectors above are the check")
    for n in list(range(0, 260)) + [1000, 4096, 10007]:
        message = pattern(n)
        assert sha512(message).digest() == reference(message).digest(), n
