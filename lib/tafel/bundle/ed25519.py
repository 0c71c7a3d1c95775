# Ed25519 signature verification (RFC 8032, section 5.1.7) in plain Python.
#
#   from tafel.bundle import ed25519
#   ed25519.verify(public_key, signature, message)   # -> True or False, never raises on bad input
#
# public_key: 32 bytes; signature: 64 bytes (R || S); message: bytes (any length;
# the updater signs a short block, see docs/updates.md). Only verification is
# here: the device never signs. Runs unchanged on CPython and MicroPython
# (ints of any size are built in; bundle/sha512.py stands in for the missing
# hashlib.sha512).
#
# What is refused, as RFC 8032 says:
#   - a public key that is not the canonical encoding of a curve point
#     (y >= p, x = 0 with the sign bit set, or no square root);
#   - S >= L (a malleable signature);
#   - an R that is not the canonical encoding of [S]B - [h]A. R is compared as
#     bytes with the encoding of that point, so a non-canonical R never
#     matches. This is the cofactorless check ([S]B = R + [h]A), the one
#     OpenSSL and the `cryptography` package make.
#
# How: points in extended coordinates (X:Y:Z:T), x = X/Z, y = Y/Z, T = XY/Z
# (Hisil et al. 2008, the formulas of RFC 8032 5.1.4); [S]B + [h](-A) in one
# plain double-and-add pass over the bits of both scalars together (Shamir's
# trick: 253 doublings, about 190 additions of B, -A or B-A), one modular
# inversion at the end for the encoding. A 2-bit window (15 table points)
# saved under 5% of the instructions but took ~6 KB more heap at the peak. Every product is
# reduced with % p at once, so every value stays below p (a fold by
# 2^255 = 19 costs fewer instructions but needs care with negative values).
# About 80 million instructions on the unix port (~15 ms; bench/update_crypto.py),
# half of them in the divisions of %, a fifth in the two exponentiations.
from tafel.bundle.sha512 import sha512
from tafel.compat import const

# const(): on the device these take no global and no interned name.
_P = const(2**255 - 19)
_L = const(2**252 + 27742317777372353535851937790883648493)
_D = const(37095705934669439343138083508754565189542113879843219016388785533085940283555)  # -121665/121666
_D2 = const((2 * _D) % _P)
_SQRT_M1 = const(19681161376707505956807079304988542015446066515923890162744021073123829784752)  # 2^((p-1)/4)
_Y_MASK = const(2**255 - 1)

# The base point B (RFC 8032 5.1): y = 4/5, x positive (even).
_BX = const(15112221349535400772501151409588531511454012693041857206046113283949847762202)
_BY = const(46316835694926478169428394003475163141307993866256225615783033603165251855960)
_B = (_BX, _BY, 1, (_BX * _BY) % _P)


def _cached(p1):
    # A point in the form _add_cached reads it in: (Y+X, Y-X, 2d*T, 2Z); a table
    # entry is converted once instead of redoing this in every addition.
    x1, y1, z1, t1 = p1
    return ((y1 + x1) % _P, (y1 - x1) % _P, t1 * _D2 % _P, 2 * z1 % _P)


def _add_cached(p1, c2):
    # p1 + p2 with p2 given as _cached(p2): unified addition in extended coordinates (RFC 8032
    # 5.1.4, add-2008-hwcd-3), 8 products where the plain formula takes 10.
    P = _P
    x1, y1, z1, t1 = p1
    ypx2, ymx2, t2d2, z22 = c2
    a = (y1 - x1) * ymx2 % P
    b = (y1 + x1) * ypx2 % P
    c = t1 * t2d2 % P
    d = z1 * z22 % P
    e = b - a
    f = d - c
    g = d + c
    h = b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _double(p1, need_t=True):
    # Doubling (RFC 8032 5.1.4, dbl-2008-hwcd). T of the input is not used; T of
    # the result only by an addition, so a doubling followed by another skips it.
    P = _P
    x1, y1, z1, _ = p1
    a = x1 * x1 % P
    b = y1 * y1 % P
    c = 2 * z1 * z1 % P
    h = a + b
    s = x1 + y1
    e = h - s * s % P
    g = a - b
    f = c + g
    return (e * f % P, g * h % P, f * g % P, e * h % P if need_t else 0)


def _decode_point(data):
    # RFC 8032 5.1.3; None for a string that is not a canonical point encoding.
    P = _P
    n = int.from_bytes(data, "little")
    y = n & _Y_MASK
    sign = n >> 255
    if y >= P:
        return None
    yy = y * y % P
    u = (yy - 1) % P
    v = (_D * yy + 1) % P
    v3 = v * v % P * v % P
    x = u * v3 % P * pow(u * v3 % P * v3 % P * v % P, (P - 5) // 8, P) % P
    vxx = v * x % P * x % P
    if vxx != u:
        if vxx != P - u:
            return None
        x = x * _SQRT_M1 % P
    if x == 0 and sign:
        return None
    if x & 1 != sign:
        x = P - x
    return (x, y, 1, x * y % P)


def _encode_point(pt):
    P = _P
    x, y, z, _ = pt
    zi = pow(z, P - 2, P)
    x = x * zi % P
    y = y * zi % P
    return (y | (x & 1) << 255).to_bytes(32, "little")


def _double_scalar_mult(s, h, q):
    # [s]B + [h]q for scalars given as 32 little-endian bytes (below 2^253): one pass from the
    # top bit down, a doubling per bit and, where a bit of either is set, an addition of B, q
    # or B+q (Shamir's trick). Three points in the cached form: a few hundred bytes of table.
    b = _cached(_B)
    bq = _cached(_add_cached(_B, _cached(q)))  # B + q: one addition formula in the module, not two
    q = _cached(q)
    acc = (0, 1, 1, 0)  # the neutral element; the leading doublings of it cost little
    for i in range(252, -1, -1):
        byte = i >> 3
        bit = i & 7
        bs = s[byte] >> bit & 1
        bh = h[byte] >> bit & 1
        if bs or bh:
            acc = _add_cached(_double(acc), bq if bs and bh else (b if bs else q))
        else:
            acc = _double(acc, False)
    return acc


def verify(public_key, signature, message):
    """True if `signature` (64 bytes) is a valid Ed25519 signature of `message` by `public_key` (32 bytes)."""
    if len(public_key) != 32 or len(signature) != 64:
        return False
    a = _decode_point(public_key)
    if a is None:
        return False
    r_bytes = bytes(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if s >= _L:
        return False
    hasher = sha512(r_bytes)
    hasher.update(public_key)
    hasher.update(message)
    h = int.from_bytes(hasher.digest(), "little") % _L
    neg_a = ((_P - a[0]) % _P, a[1], a[2], (_P - a[3]) % _P)
    point = _double_scalar_mult(bytes(signature[32:]), h.to_bytes(32, "little"), neg_a)
    return _encode_point(point) == r_bytes
