# A bundle file as the laptop holds it, before anything is sent: whole or not, its head, its id.
#
#   m = check_bundle(data)      # the Manifest; BadBundle (a plain sentence) if the file is not whole
#   bundle_id(data)             # 16 hex digits, as INFO names the running bundle
#
# check_bundle uses the device's own reader (the core's tafel/bundle/): a header and manifest
# it takes, every file's body there and matching its entry (size, SHA-256), nothing after the last
# one. The signature is not checked here: the device's trust store decides (tafel bundle show can,
# with a trust store). tafel update refuses to send a file that is not whole (exit 2).
import hashlib
import io

from tafel.bundle import manifest as fmt
from tafel.bundle import parts
from tafel.bundle.errors import UpdateError

from ..lang import grouped, say
from . import refusals


class BadBundle(Exception):
    """A file not sent: `key` as the device's reader names it, `detail`; str() is the plain sentence."""

    def __init__(self, key, detail=None, note=""):
        Exception.__init__(self, refusals.sentence(key, detail) + (" " + note if note else ""))
        self.key = key
        self.detail = detail


def head_of(data):
    length, _ = fmt.unpack_header(data[:fmt.HEADER_SIZE])
    return data[:fmt.HEADER_SIZE + length + fmt.SIGNATURE_SIZE]


def bundle_id(data):
    """The bundle's id as INFO gives it: 16 hex digits, the first 8 bytes of its head's SHA-256."""
    return hashlib.sha256(head_of(data)).digest()[:8].hex()


def check_bundle(data):
    """The Manifest of bundle bytes that are whole: a header and manifest the device's reader takes,
    every file's body there and matching its entry (size, SHA-256), nothing after the last one.
    BadBundle if not. The signature is not checked (the device's trust store decides)."""
    if not data:
        raise BadBundle("not_bundle", None, say("bf_empty"))
    try:
        length, kid = fmt.unpack_header(data[:fmt.HEADER_SIZE])
        head = fmt.HEADER_SIZE + length + fmt.SIGNATURE_SIZE
        if len(data) < fmt.HEADER_SIZE + length:
            raise UpdateError("truncated", "manifest")
        m = fmt.parse(data[fmt.HEADER_SIZE:fmt.HEADER_SIZE + length], kid, head)
    except UpdateError as err:
        note = ""
        if err.key == "truncated" and err.detail == "header":
            note = say("bf_header_only", _n(len(data)), fmt.HEADER_SIZE)
        elif err.key == "truncated":
            note = say("bf_head", _n(len(data)), _n(head))
        raise BadBundle(err.key, err.detail, note) from None
    if len(data) < m.total_size:
        part = "signature"
        for entry in m.files:
            if entry.offset <= len(data) < entry.offset + entry.stored:
                part = entry.path
        raise BadBundle("truncated", part, say("bf_part", _n(len(data)), _n(m.total_size)))
    if len(data) > m.total_size:
        raise BadBundle("trailing_data", None, say("bf_trailing", _n(len(data) - m.total_size), _n(len(data)),
                                                   _n(m.total_size)))
    stream = io.BytesIO(data)
    buf = bytearray(parts.CHUNK)
    for entry in m.files:
        stream.seek(entry.offset)
        try:
            parts.verify_file(stream, entry, m.window, None, buf)
        except UpdateError as err:
            raise BadBundle(err.key, err.detail) from None
    return m


def _n(count):
    return grouped(count)
