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
from binascii import unhexlify

_M = 0xFFFFFFFFFFFFFFFF

# The 80 round constants as bytes (640 B on the heap instead of 80 int objects), unpacked one at a time.
_K = unhexlify(
    "428a2f98d728ae227137449123ef65cdb5c0fbcfec4d3b2fe9b5dba58189dbbc"
    "3956c25bf348b53859f111f1b605d019923f82a4af194f9bab1c5ed5da6d8118"
    "d807aa98a303024212835b0145706fbe243185be4ee4b28c550c7dc3d5ffb4e2"
    "72be5d74f27b896f80deb1fe3b1696b19bdc06a725c71235c19bf174cf692694"
    "e49b69c19ef14ad2efbe4786384f25e30fc19dc68b8cd5b5240ca1cc77ac9c65"
    "2de92c6f592b02754a7484aa6ea6e4835cb0a9dcbd41fbd476f988da831153b5"
    "983e5152ee66dfaba831c66d2db43210b00327c898fb213fbf597fc7beef0ee4"
    "c6e00bf33da88fc2d5a79147930aa72506ca6351e003826f142929670a0e6e70"
    "27b70a8546d22ffc2e1b21385c26c9264d2c6dfc5ac42aed53380d139d95b3df"
    "650a73548baf63de766a0abb3c77b2a881c2c92e47edaee692722c851482353b"
    "a2bfe8a14cf10364a81a664bbc423001c24b8b70d0f89791c76c51a30654be30"
    "d192e819d6ef5218d69906245565a910f40e35855771202a106aa07032bbd1b8"
    "19a4c116b8d2d0c81e376c085141ab532748774cdf8eeb9934b0bcb5e19b48a8"
    "391c0cb3c5c95a634ed8aa4ae3418acb5b9cca4f7763e373682e6ff3d6b2b8a3"
    "748f82ee5defb2fc78a5636f43172f6084c87814a1f0ab728cc702081a6439ec"
    "90befffa23631e28a4506cebde82bde9bef9a3f7b2c67915c67178f2e372532b"
    "ca273eceea26619cd186b8c721c0c207eada7dd6cde0eb1ef57d4f7fee6ed178"
    "06f067aa72176fba0a637dc5a2c898a6113f9804bef90dae1b710b35131c471b"
    "28db77f523047d8432caab7b40c724933c9ebe0a15c9bebc431d67c49c100d4c"
    "4cc5d4becb3e42b6597f299cfc657e2a5fcb6fab3ad6faec6c44198c4a475817"
)

_IV = (
    0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
    0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179,
)


def _compress(state, block, offset):
    # One 128-byte block at block[offset:]; returns the new state as a list of 8 words.
    # The message schedule is kept as a rolling window of 16 words and each round
    # constant is unpacked when needed: few ints alive at once in a small heap.
    M = _M
    K = _K
    unpack_from = struct.unpack_from
    w = list(unpack_from(">16Q", block, offset))
    a, b, c, d, e, f, g, h = state
    for t in range(80):
        j = t & 15
        if t < 16:
            wt = w[j]
        else:
            # A word doubled to 128 bits (xx = x:x) turns each right rotation into one shift;
            # the bits shifted above bit 63 are masked away once.
            x = w[(t + 1) & 15]  # w[t - 15]
            y = w[(t + 14) & 15]  # w[t - 2]
            xx = x << 64 | x
            yy = y << 64 | y
            wt = (w[j] + ((xx >> 1 ^ xx >> 8) & M ^ x >> 7) + w[(t + 9) & 15]  # w[t - 16], w[t - 7]
                  + ((yy >> 19 ^ yy >> 61) & M ^ y >> 6)) & M
            w[j] = wt
        # Sigma1(e), Ch(e, f, g), Sigma0(a) and Maj(a, b, c) with as few int operations as they allow.
        ee = e << 64 | e
        aa = a << 64 | a
        t1 = h + ((ee >> 14 ^ ee >> 18 ^ ee >> 41) & M) + (g ^ (e & (f ^ g))) + unpack_from(">Q", K, t << 3)[0] + wt
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
