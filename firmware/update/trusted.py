# Public keys whose update bundles this device accepts (Ed25519, 32 bytes each).
#
# Written by `tafel keygen` (host_tools/update/keys.py), which adds the new key's
# line; the private keys stay on the laptops that made them. Empty: no bundle
# is accepted until a key is added and the firmware with it is installed.
TRUSTED_KEYS = (
)
