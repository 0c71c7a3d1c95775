# SHA-512 (FIPS 180-4) in plain Python, for MicroPython whose hashlib has no sha512.
#
#   from tafel.bundle.sha512 import sha512
#   sha512(b"abc").digest()              # 64 bytes, as hashlib.sha512(b"abc").digest()
#   h = sha512(); h.update(a); h.update(b); h.digest()
#
# Runs unchanged on CPython (the tests compare it with hashlib there). Words
# are Python ints masked to 64 bits: on MicroPython they are arbitrary
# precision ints (heap objects), so the code keeps the number of operations
# per round low rather than splitting words into halves; a word doubled to
# 128 bits (x << 64 | x) makes each rotation one shift. About 170 KB/s on the
# unix port (bench/update_crypto.py), far slower than C: Ed25519 verification
# (bundle/ed25519.py) hashes R || A || message, and the updater signs a
# 52-byte message (bundle/manifest.py), so a verify hashes two blocks.
#
# digest() may be called more than once and update() may follow it, as with
# hashlib; the object holds at most one partial block (127 bytes).
import struct

from tafel.compat import const

# const(): on the device these take no global and no interned name.
_M = const(0xFFFFFFFFFFFFFFFF)

# The 80 round constants as one bytes literal, unpacked one at a time: 640 B on the heap, not 80
# int objects (nor a hex text beside its bytes, which the module's constants would keep).
_K = const(
    b"\x42\x8a\x2f\x98\xd7\x28\xae\x22\x71\x37\x44\x91\x23\xef\x65\xcd"
    b"\xb5\xc0\xfb\xcf\xec\x4d\x3b\x2f\xe9\xb5\xdb\xa5\x81\x89\xdb\xbc"
    b"\x39\x56\xc2\x5b\xf3\x48\xb5\x38\x59\xf1\x11\xf1\xb6\x05\xd0\x19"
    b"\x92\x3f\x82\xa4\xaf\x19\x4f\x9b\xab\x1c\x5e\xd5\xda\x6d\x81\x18"
    b"\xd8\x07\xaa\x98\xa3\x03\x02\x42\x12\x83\x5b\x01\x45\x70\x6f\xbe"
    b"\x24\x31\x85\xbe\x4e\xe4\xb2\x8c\x55\x0c\x7d\xc3\xd5\xff\xb4\xe2"
    b"\x72\xbe\x5d\x74\xf2\x7b\x89\x6f\x80\xde\xb1\xfe\x3b\x16\x96\xb1"
    b"\x9b\xdc\x06\xa7\x25\xc7\x12\x35\xc1\x9b\xf1\x74\xcf\x69\x26\x94"
    b"\xe4\x9b\x69\xc1\x9e\xf1\x4a\xd2\xef\xbe\x47\x86\x38\x4f\x25\xe3"
    b"\x0f\xc1\x9d\xc6\x8b\x8c\xd5\xb5\x24\x0c\xa1\xcc\x77\xac\x9c\x65"
    b"\x2d\xe9\x2c\x6f\x59\x2b\x02\x75\x4a\x74\x84\xaa\x6e\xa6\xe4\x83"
    b"\x5c\xb0\xa9\xdc\xbd\x41\xfb\xd4\x76\xf9\x88\xda\x83\x11\x53\xb5"
    b"\x98\x3e\x51\x52\xee\x66\xdf\xab\xa8\x31\xc6\x6d\x2d\xb4\x32\x10"
    b"\xb0\x03\x27\xc8\x98\xfb\x21\x3f\xbf\x59\x7f\xc7\xbe\xef\x0e\xe4"
    b"\xc6\xe0\x0b\xf3\x3d\xa8\x8f\xc2\xd5\xa7\x91\x47\x93\x0a\xa7\x25"
    b"\x06\xca\x63\x51\xe0\x03\x82\x6f\x14\x29\x29\x67\x0a\x0e\x6e\x70"
    b"\x27\xb7\x0a\x85\x46\xd2\x2f\xfc\x2e\x1b\x21\x38\x5c\x26\xc9\x26"
    b"\x4d\x2c\x6d\xfc\x5a\xc4\x2a\xed\x53\x38\x0d\x13\x9d\x95\xb3\xdf"
    b"\x65\x0a\x73\x54\x8b\xaf\x63\xde\x76\x6a\x0a\xbb\x3c\x77\xb2\xa8"
    b"\x81\xc2\xc9\x2e\x47\xed\xae\xe6\x92\x72\x2c\x85\x14\x82\x35\x3b"
    b"\xa2\xbf\xe8\xa1\x4c\xf1\x03\x64\xa8\x1a\x66\x4b\xbc\x42\x30\x01"
    b"\xc2\x4b\x8b\x70\xd0\xf8\x97\x91\xc7\x6c\x51\xa3\x06\x54\xbe\x30"
    b"\xd1\x92\xe8\x19\xd6\xef\x52\x18\xd6\x99\x06\x24\x55\x65\xa9\x10"
    b"\xf4\x0e\x35\x85\x57\x71\x20\x2a\x10\x6a\xa0\x70\x32\xbb\xd1\xb8"
    b"\x19\xa4\xc1\x16\xb8\xd2\xd0\xc8\x1e\x37\x6c\x08\x51\x41\xab\x53"
    b"\x27\x48\x77\x4c\xdf\x8e\xeb\x99\x34\xb0\xbc\xb5\xe1\x9b\x48\xa8"
    b"\x39\x1c\x0c\xb3\xc5\xc9\x5a\x63\x4e\xd8\xaa\x4a\xe3\x41\x8a\xcb"
    b"\x5b\x9c\xca\x4f\x77\x63\xe3\x73\x68\x2e\x6f\xf3\xd6\xb2\xb8\xa3"
    b"\x74\x8f\x82\xee\x5d\xef\xb2\xfc\x78\xa5\x63\x6f\x43\x17\x2f\x60"
    b"\x84\xc8\x78\x14\xa1\xf0\xab\x72\x8c\xc7\x02\x08\x1a\x64\x39\xec"
    b"\x90\xbe\xff\xfa\x23\x63\x1e\x28\xa4\x50\x6c\xeb\xde\x82\xbd\xe9"
    b"\xbe\xf9\xa3\xf7\xb2\xc6\x79\x15\xc6\x71\x78\xf2\xe3\x72\x53\x2b"
    b"\xca\x27\x3e\xce\xea\x26\x61\x9c\xd1\x86\xb8\xc7\x21\xc0\xc2\x07"
    b"\xea\xda\x7d\xd6\xcd\xe0\xeb\x1e\xf5\x7d\x4f\x7f\xee\x6e\xd1\x78"
    b"\x06\xf0\x67\xaa\x72\x17\x6f\xba\x0a\x63\x7d\xc5\xa2\xc8\x98\xa6"
    b"\x11\x3f\x98\x04\xbe\xf9\x0d\xae\x1b\x71\x0b\x35\x13\x1c\x47\x1b"
    b"\x28\xdb\x77\xf5\x23\x04\x7d\x84\x32\xca\xab\x7b\x40\xc7\x24\x93"
    b"\x3c\x9e\xbe\x0a\x15\xc9\xbe\xbc\x43\x1d\x67\xc4\x9c\x10\x0d\x4c"
    b"\x4c\xc5\xd4\xbe\xcb\x3e\x42\xb6\x59\x7f\x29\x9c\xfc\x65\x7e\x2a"
    b"\x5f\xcb\x6f\xab\x3a\xd6\xfa\xec\x6c\x44\x19\x8c\x4a\x47\x58\x17"
)

_IV = const((
    0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
    0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179,
))


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
        # Padding: 0x80, zeros, then the length in bits as 128-bit big-endian, in the last block
        # or, when the tail leaves no 16 bytes for it, in one more. Each is built in a block of
        # its own (128 bytes, never 256 in one piece: the verify runs in a small, full heap).
        tail = self._tail
        n = len(tail)
        block = bytearray(128)
        block[:n] = tail
        block[n] = 0x80
        state = self._state
        if n >= 112:
            state = _compress(state, block, 0)
            block = bytearray(128)
        struct.pack_into(">QQ", block, 112, self._length >> 61, (self._length << 3) & _M)
        state = _compress(state, block, 0)
        return struct.pack(">8Q", *state)

    def hexdigest(self):
        return "".join("%02x" % b for b in self.digest())
