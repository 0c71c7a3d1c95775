# SHA-512 (FIPS 180-4) in plain Python, for MicroPython whose hashlib has no sha512.
#
#   from update.sha512 import sha512
#   sha512(b"abc").digest()              # 64 bytes, as hashlib.sha512(b"abc").digest()
#   h = sha512(); h.update(a); h.update(b); h.digest()
#
# Runs unchanged on CPython (the tests compare it with hashlib there). Words
# are Python ints masked to 64 bits: on MicroPython they are arbitrary
# precision ints (heap objects), so the code keeps the number of operations
# per round low rather than splitting words into halves; a word doubled to
# 128 bits (x << 64 | x) makes each rotation one shift. About 170 KB/s on the
# unix port (bench/update_crypto.py), far slower than C: Ed25519 verification
# (update/ed25519.py) hashes R || A || message, and the updater signs a
# 52-byte message (update/manifest.py), so a verify hashes two blocks.
#
# digest() may be called more than once and update() may follow it, as with
# hashlib; the object holds at most one partial block (127 bytes).
import struct

_M = 0xFFFFFFFFFFFFFFFF

_K = (
    0x428A2F98D728AE22, 0x7137449123EF65CD, 0xB5C0FBCFEC4D3B2F, 0xE9B5DBA58189DBBC,
    0x3956C25BF348B538, 0x59F111F1B605D019, 0x923F82A4AF194F9B, 0xAB1C5ED5DA6D8118,
    0xD807AA98A3030242, 0x12835B0145706FBE, 0x243185BE4EE4B28C, 0x550C7DC3D5FFB4E2,
    0x72BE5D74F27B896F, 0x80DEB1FE3B1696B1, 0x9BDC06A725C71235, 0xC19BF174CF692694,
    0xE49B69C19EF14AD2, 0xEFBE4786384F25E3, 0x0FC19DC68B8CD5B5, 0x240CA1CC77AC9C65,
    0x2DE92C6F592B0275, 0x4A7484AA6EA6E483, 0x5CB0A9DCBD41FBD4, 0x76F988DA831153B5,
    0x983E5152EE66DFAB, 0xA831C66D2DB43210, 0xB00327C898FB213F, 0xBF597FC7BEEF0EE4,
    0xC6E00BF33DA88FC2, 0xD5A79147930AA725, 0x06CA6351E003826F, 0x142929670A0E6E70,
    0x27B70A8546D22FFC, 0x2E1B21385C26C926, 0x4D2C6DFC5AC42AED, 0x53380D139D95B3DF,
    0x650A73548BAF63DE, 0x766A0ABB3C77B2A8, 0x81C2C92E47EDAEE6, 0x92722C851482353B,
    0xA2BFE8A14CF10364, 0xA81A664BBC423001, 0xC24B8B70D0F89791, 0xC76C51A30654BE30,
    0xD192E819D6EF5218, 0xD69906245565A910, 0xF40E35855771202A, 0x106AA07032BBD1B8,
    0x19A4C116B8D2D0C8, 0x1E376C085141AB53, 0x2748774CDF8EEB99, 0x34B0BCB5E19B48A8,
    0x391C0CB3C5C95A63, 0x4ED8AA4AE3418ACB, 0x5B9CCA4F7763E373, 0x682E6FF3D6B2B8A3,
    0x748F82EE5DEFB2FC, 0x78A5636F43172F60, 0x84C87814A1F0AB72, 0x8CC702081A6439EC,
    0x90BEFFFA23631E28, 0xA4506CEBDE82BDE9, 0xBEF9A3F7B2C67915, 0xC67178F2E372532B,
    0xCA273ECEEA26619C, 0xD186B8C721C0C207, 0xEADA7DD6CDE0EB1E, 0xF57D4F7FEE6ED178,
    0x06F067AA72176FBA, 0x0A637DC5A2C898A6, 0x113F9804BEF90DAE, 0x1B710B35131C471B,
    0x28DB77F523047D84, 0x32CAAB7B40C72493, 0x3C9EBE0A15C9BEBC, 0x431D67C49C100D4C,
    0x4CC5D4BECB3E42B6, 0x597F299CFC657E2A, 0x5FCB6FAB3AD6FAEC, 0x6C44198C4A475817,
)

_IV = (
    0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
    0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179,
)


def _compress(state, block, offset):
    # One 128-byte block at block[offset:]; returns the new state as a list of 8 words.
    M = _M
    K = _K
    w = list(struct.unpack_from(">16Q", block, offset))
    append = w.append
    for t in range(16, 80):
        x = w[t - 15]
        y = w[t - 2]
        # A word doubled to 128 bits (xx = x:x) turns each right rotation into one shift.
        xx = x << 64 | x
        yy = y << 64 | y
        append((w[t - 16] + ((xx >> 1 ^ xx >> 8) & M ^ x >> 7) + w[t - 7] + ((yy >> 19 ^ yy >> 61) & M ^ y >> 6)) & M)
    a, b, c, d, e, f, g, h = state
    for t in range(80):
        # Sigma1(e), Ch(e, f, g), Sigma0(a) and Maj(a, b, c) with as few int operations as they allow.
        ee = e << 64 | e
        aa = a << 64 | a
        t1 = h + ((ee >> 14 ^ ee >> 18 ^ ee >> 41) & M) + (g ^ (e & (f ^ g))) + K[t] + w[t]
        t2 = ((aa >> 28 ^ aa >> 34 ^ aa >> 39) & M) + ((a & b) | (c & (a | b)))
        h = g
        g = f
        f = e
        e = (d + t1) & M
        d = c
        c = b
        b = a
        a = (t1 + t2) & M
    return [
        (state[0] + a) & M, (state[1] + b) & M, (state[2] + c) & M, (state[3] + d) & M,
        (state[4] + e) & M, (state[5] + f) & M, (state[6] + g) & M, (state[7] + h) & M,
    ]


class sha512:
    """hashlib-style SHA-512: update(data), digest(); the constructor takes optional first data."""

    digest_size = 64
    block_size = 128

    def __init__(self, data=None):
        self._state = list(_IV)
        self._tail = b""  # the bytes of a block not yet full (< 128)
        self._length = 0  # bytes hashed so far
        if data is not None:
            self.update(data)

    def update(self, data):
        n = len(data)
        if not n:
            return
        self._length += n
        state = self._state
        start = 0
        if self._tail:
            need = 128 - len(self._tail)
            if n < need:
                self._tail += bytes(data)
                return
            state = _compress(state, self._tail + bytes(data[:need]), 0)
            start = need
        end = start + ((n - start) & ~127)
        while start < end:
            state = _compress(state, data, start)
            start += 128
        self._state = state
        self._tail = bytes(data[start:])

    def digest(self):
        tail = self._tail
        # Padding: 0x80, zeros, then the length in bits as 128-bit big-endian.
        pad = -(len(tail) + 17) % 128
        last = tail + b"\x80" + bytes(pad) + struct.pack(">QQ", self._length >> 61, (self._length << 3) & _M)
        state = self._state
        for offset in range(0, len(last), 128):
            state = _compress(state, last, offset)
        return struct.pack(">8Q", *state)

    def hexdigest(self):
        return "".join("%02x" % b for b in self.digest())
