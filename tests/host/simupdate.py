# A simulated device with a signed version installed, for the update tests (USB, Wi-Fi, rollback).
#
#   s = signed_versions(tmp_dir, ("0.8.0", "0.9.0"))   # a test key, its trust store, a bundle each, a foreign one
#   install(s, flash, "0.8.0")                         # firmware/sim/install.py: slot a, confirmed
#
# The test key reaches the simulated device the way any key reaches a device: inside the
# trust store (update/trusted.py) of the version installed on it. Nothing in the firmware
# or the simulator accepts a key from elsewhere.
import subprocess

from simlink import ROOT
from tafel_host.sim.launcher import DEFAULT_BOARD, device_runtime, find_board
from tafel_host.update import bundle_build, keys

INSTALL = ROOT / "firmware" / "sim" / "install.py"
# A standard game to 200 for Anna, Ben and Cleo, one round saved (docs/screens.txt's start).
GAME = """1 D A
D # # 2 6 6 wait:1200 6 6 2
#
# # 2 2 3 3 6 6 #
# # 2 2 2 5 5 5 3 3 6 6 6 #
D #
A D 3 6 D 5 0 B 3
# #"""


class Signed:
    """dir, store (trust store with the test key), key_path, pub_path, public, bundles {version: path}, foreign."""


def signed_versions(folder, versions, seed=None):
    """seed: bytes the test key is made from (the same bundles, byte for byte, in every run: the
    heap scenarios, whose figures must not move with a random key's numbers); None: a new key."""
    s = Signed()
    s.dir = folder
    s.store = _store_with(folder / "trusted.py", None, None)
    if seed is None:
        s.key_path, s.pub_path, s.public = keys.generate(folder / "keys")
    else:
        s.key_path, s.pub_path, s.public = _seeded_key(folder / "keys", seed)
    keys.add_to_trust_store(s.store, s.public, "test")
    mpy_cross = bundle_build.find_mpy_cross()
    s.bundles = {}
    for version in versions:
        path = folder / ("tafel-%s.bundle" % version)
        bundle_build.build(path, s.key_path, version, trust_store=s.store, mpy_cross=mpy_cross)
        s.bundles[version] = path
    # a bundle from a stranger: signed with a key only its own trust store has
    stranger_key, _, stranger_public = keys.generate(folder / "stranger", "stranger")
    s.foreign = folder / "foreign.bundle"
    bundle_build.build(s.foreign, stranger_key, "1.0.0", mpy_cross=mpy_cross,
                       trust_store=_store_with(folder / "stranger-trusted.py", stranger_public, "stranger"))
    return s


def _seeded_key(folder, seed):
    import hashlib
    import os

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(seed).digest())
    folder.mkdir(parents=True, exist_ok=True)
    private_path, public_path = folder / (keys.KEY_NAME + ".key"), folder / (keys.KEY_NAME + ".pub")
    private_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
    os.chmod(private_path, 0o600)  # as keys.generate makes it: tafel warns of a key others may read
    public = keys.public_bytes(key)
    public_path.write_text(public.hex() + "\n")
    return private_path, public_path, public


def _store_with(path, public, name):
    path.write_text((ROOT / "firmware" / "update" / "trusted.py").read_text())
    if public is not None:
        keys.add_to_trust_store(path, public, name)
    return path


def install(s, flash, version, micropython=None):
    """A first install of `version` into the flash image (what tafel flash does to a board).

    micropython: the interpreter the simulated device will run (its build decides what the
    slot holds: on the device build, only what its frozen image lacks); default the one
    `tafel sim` runs the default board on."""
    if micropython is None:
        micropython = device_runtime(find_board(DEFAULT_BOARD)).micropython
    done = subprocess.run([str(micropython), "-X", "heapsize=8M", str(INSTALL), "--flash",
                           str(flash), "--pub",
                           s.public.hex(), str(s.bundles[version])],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == version


def script(s, name, keys_):
    """A key script file in the test's folder."""
    path = s.dir / name
    path.write_text(keys_ + "\n")
    return path
