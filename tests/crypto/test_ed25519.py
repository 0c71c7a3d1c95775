# Ed25519 verification in Python (lib/tafel/bundle/ed25519.py): RFC 8032 section 7.1, what must be
# refused, and (CPython) a cross-check against the `cryptography` package with random keys.
# Runs under pytest (CPython) and tests/mpy_runner.py (MicroPython): plain asserts, no fixtures.
from binascii import unhexlify

import pytest

from tafel.bundle import ed25519

# RFC 8032, section 7.1: (secret key, public key, message, signature), hex.
# TEST 1, TEST 2, TEST 3, TEST 1024 (a 1023-byte message) and TEST SHA(abc).
RFC8032 = (
    ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
     "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555"
     "fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
     "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da0"
     "85ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
     "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac1"
     "8ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
    ("f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
     "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e",
     "08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98"
     "fa6e264bf09efe12ee50f8f54e9f77b1e355f6c50544e23fb1433ddf73be84d8"
     "79de7c0046dc4996d9e773f4bc9efe5738829adb26c81b37c93a1b270b20329d"
     "658675fc6ea534e0810a4432826bf58c941efb65d57a338bbd2e26640f89ffbc"
     "1a858efcb8550ee3a5e1998bd177e93a7363c344fe6b199ee5d02e82d522c4fe"
     "ba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e"
     "06203b33890cc9b832f79ef80560ccb9a39ce767967ed628c6ad573cb116dbef"
     "efd75499da96bd68a8a97b928a8bbc103b6621fcde2beca1231d206be6cd9ec7"
     "aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53f1d8ac70bdcb7ed1"
     "85ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2"
     "d17ba70eb6248e594e1a2297acbbb39d502f1a8c6eb6f1ce22b3de1a1f40cc24"
     "554119a831a9aad6079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f270"
     "88d78b7e883c8759d2c4f5c65adb7553878ad575f9fad878e80a0c9ba63bcbcc"
     "2732e69485bbc9c90bfbd62481d9089beccf80cfe2df16a2cf65bd92dd597b07"
     "07e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128ba"
     "b27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51a"
     "ddd3b75a2b1ae0784504df543af8969be3ea7082ff7fc9888c144da2af58429e"
     "c96031dbcad3dad9af0dcbaaaf268cb8fcffead94f3c7ca495e056a9b47acdb7"
     "51fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301651339e22904cc8c"
     "42f58c30c04aafdb038dda0847dd988dcda6f3bfd15c4b4c4525004aa06eeff8"
     "ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34df"
     "f7310fdc82aebfd904b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08"
     "d78ff4ef5d63653a65040cf9bfd4aca7984a74d37145986780fc0b16ac451649"
     "de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a3ca8e1b939ae49e4"
     "88acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a3"
     "2ef5b52a1ecc820e308aa342721aac0943bf6686b64b2579376504ccc493d97e"
     "6aed3fb0f9cd71a43dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5f"
     "b93246f6b1116398a346f1a641f3b041e989f7914f90cc2c7fff357876e506b5"
     "0d334ba77c225bc307ba537152f3f1610e4eafe595f6d9d90d11faa933a15ef1"
     "369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380d"
     "b2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c"
     "0618983f8741c5ef68d3a101e8a3b8cac60c905c15fc910840b94c00a0b9d0",
     "0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350a"
     "a5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03"),
    ("833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
     "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
     "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
     "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b589"
     "09351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"),
)

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493


def vector(i):
    _, public, message, signature = RFC8032[i]
    return unhexlify(public), unhexlify(message), unhexlify(signature)


def flipped(data, index, bit=0):
    changed = bytearray(data)
    changed[index] ^= 1 << bit
    return bytes(changed)


def le32(n):
    return n.to_bytes(32, "little")


def test_rfc8032_vectors_verify():
    for i in range(len(RFC8032)):
        public, message, signature = vector(i)
        assert ed25519.verify(public, signature, message) is True, i


def test_the_1023_byte_message_is_what_the_rfc_says():
    public, message, signature = vector(3)
    assert len(message) == 1023
    assert ed25519.verify(public, signature, memoryview(message)) is True
    assert ed25519.verify(public, signature, bytearray(message)) is True


def test_every_signature_byte_flipped_is_refused():
    public, message, signature = vector(2)
    for i in range(64):
        assert ed25519.verify(public, flipped(signature, i, i % 8), message) is False, i


def test_public_key_flips_are_refused():
    public, message, signature = vector(1)
    for i in range(0, 32, 3):
        assert ed25519.verify(flipped(public, i, (i * 3) % 8), signature, message) is False, i
    assert ed25519.verify(flipped(public, 31, 7), signature, message) is False  # the sign of x


def test_message_flips_are_refused():
    public, message, signature = vector(3)
    for i in (0, 1, 127, 128, 511, 1022):
        assert ed25519.verify(public, signature, flipped(message, i, i % 8)) is False, i
    assert ed25519.verify(public, signature, message[:-1]) is False
    assert ed25519.verify(public, signature, message + b"\0") is False


def test_signature_of_another_key_or_message_is_refused():
    public0, message0, signature0 = vector(0)
    public1, message1, signature1 = vector(1)
    assert ed25519.verify(public1, signature0, message0) is False
    assert ed25519.verify(public0, signature1, message1) is False
    assert ed25519.verify(public0, signature0, message1) is False


def test_s_not_below_l_is_refused():
    # [S+L]B = [S]B: the equation still holds, only the range check refuses the malleable form.
    public, message, signature = vector(0)
    s = int.from_bytes(signature[32:], "little")
    assert ed25519.verify(public, signature[:32] + le32(s + L), message) is False
    assert ed25519.verify(public, signature[:32] + le32(L), message) is False
    assert ed25519.verify(public, signature[:32] + b"\xff" * 32, message) is False


def test_non_canonical_public_keys_are_refused():
    public, message, signature = vector(0)
    # y >= p: p itself (which would mean y = 0) and p + 1 (y = 1); all-ones.
    assert ed25519._decode_point(le32(P)) is None
    assert ed25519._decode_point(le32(P + 1)) is None
    assert ed25519._decode_point(b"\xff" * 32) is None
    assert ed25519.verify(le32(P + 1), signature, message) is False
    # x = 0 with the sign bit set: y = 1 (the neutral element) and y = -1.
    assert ed25519._decode_point(le32(1 | 1 << 255)) is None
    assert ed25519._decode_point(le32((P - 1) | 1 << 255)) is None
    # The same points with the sign bit clear are canonical.
    assert ed25519._decode_point(le32(1)) is not None
    assert ed25519._decode_point(le32(P - 1)) is not None
    # y = 2 is no point on the curve (u/v has no square root).
    assert ed25519._decode_point(le32(2)) is None
    assert ed25519.verify(le32(2), signature, message) is False


def test_non_canonical_r_is_refused():
    # R is compared with the canonical encoding of [S]B - [h]A: an R with y + p in place of y, or
    # the sign bit of an x = 0 point, never matches (and these R are checked before any hashing).
    public, message, signature = vector(0)
    for r in (le32(P + 1), le32(1 | 1 << 255), b"\xff" * 32):
        assert ed25519.verify(public, r + signature[32:], message) is False


def test_base_point_round_trip():
    # The decoder and encoder agree on B (RFC 8032 5.1: y = 4/5, x even), and B + B by the
    # addition formula is [2]B by the doubling one.
    encoded = ed25519._encode_point(ed25519._B)
    assert encoded == le32(ed25519._B[1])  # y of B
    assert ed25519._encode_point(ed25519._decode_point(encoded)) == encoded
    twice = ed25519._encode_point(ed25519._double(ed25519._B))
    assert ed25519._encode_point(ed25519._add_cached(ed25519._B, ed25519._cached(ed25519._B))) == twice


def test_garbage_is_refused_without_raising():
    public, message, signature = vector(0)
    assert ed25519.verify(b"", signature, message) is False
    assert ed25519.verify(public[:31], signature, message) is False
    assert ed25519.verify(public + b"\0", signature, message) is False
    assert ed25519.verify(public, signature[:63], message) is False
    assert ed25519.verify(public, b"", message) is False
    assert ed25519.verify(b"\0" * 32, b"\0" * 64, b"") is False
    assert ed25519.verify(public, b"\0" * 64, message) is False


# ---- CPython only: the `cryptography` package as the reference ----------------------------


def _reference():
    crypto = pytest.importorskip("cryptography")  # noqa: F841 (skips under MicroPython)
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    def raw_public(key):
        return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)

    return Ed25519PrivateKey, raw_public


def test_rfc8032_vectors_match_a_real_signer():
    # The transcription above is right: the reference makes the same keys and signatures.
    Ed25519PrivateKey, raw_public = _reference()
    for secret, public, message, signature in RFC8032:
        key = Ed25519PrivateKey.from_private_bytes(unhexlify(secret))
        assert raw_public(key).hex() == public
        assert key.sign(unhexlify(message)).hex() == signature


def test_random_keys_and_messages_agree_with_cryptography():
    import os
    import random

    Ed25519PrivateKey, raw_public = _reference()
    from cryptography.exceptions import InvalidSignature

    rng = random.Random(8032)
    for n in range(40):
        key = Ed25519PrivateKey.generate()
        public = raw_public(key)
        message = os.urandom(rng.choice((0, 1, 31, 32, 63, 64, 65, 127, 128, 129, 500, 3000)))
        signature = key.sign(message)
        assert ed25519.verify(public, signature, message) is True
        # A flipped bit anywhere in signature, message or key: refused here and by the reference.
        where = rng.choice(("signature", "message", "key")) if message else rng.choice(("signature", "key"))
        if where == "signature":
            signature = flipped(signature, rng.randrange(64), rng.randrange(8))
        elif where == "message":
            message = flipped(message, rng.randrange(len(message)), rng.randrange(8))
        else:
            public = flipped(public, rng.randrange(32), rng.randrange(8))
        assert ed25519.verify(public, signature, message) is False, (n, where)
        try:
            from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

            Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
            reference_accepts = True
        except (InvalidSignature, ValueError):
            reference_accepts = False
        assert reference_accepts is False, (n, where)


def test_every_bit_of_one_signature_against_cryptography():
    # All 512 single-bit changes of a signature and all 256 of its key are refused.
    Ed25519PrivateKey, raw_public = _reference()
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    public = raw_public(key)
    message = b"tafel manifest"
    signature = key.sign(message)
    for i in range(64):
        for bit in range(8):
            assert ed25519.verify(public, flipped(signature, i, bit), message) is False, (i, bit)
    for i in range(32):
        for bit in range(8):
            assert ed25519.verify(flipped(public, i, bit), signature, message) is False, (i, bit)
