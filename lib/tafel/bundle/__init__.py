# Signed update bundles (docs/updates.md): the format and every check a device makes, for the
# device (firmware/update/ stages with them) and the laptop (tafel bundle, serve-update, flash).
#
#   errors.py      UpdateError(key, detail), the keys the UI translates
#   header.py      the 20-byte header and the signature check
#   manifest.py    the manifest's parser and the format's constants
#   parts.py       the install rules, a whole application, each file against its entry
#   reader.py      a whole bundle from one stream (verify_bundle)
#   bounded.py     a body from a stream that is no file, for the inflater
#   sha512.py      SHA-512 in Python (MicroPython's hashlib has none); ed25519.py verification
#   inflate_zlib.py  inflating on CPython (a device uses its deflate module)
#   discovery.py   the Wi-Fi search for an update server: ports and datagrams
# Pure Python for MicroPython and CPython. Kept small in RAM: each module is imported when used.
