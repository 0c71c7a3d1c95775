# Signed application updates (docs/updates.md): verification on the device.
#
#   sha512.py    SHA-512 in Python (MicroPython's hashlib has none)
#   ed25519.py   Ed25519 signature verification (RFC 8032)
#   errors.py    UpdateError(key, detail), the keys the UI translates
#   manifest.py  the bundle format, shared with the laptop's bundle builder
#   bundle.py    reading and verifying a bundle from a stream
#   trusted.py   the public keys whose bundles this device accepts
