# tests/firmware/appbundle.py (a whole tiny application, signed: what the firmware tests stage and
# switch) is what the laptop's builder makes of its recipe; if the format or mpy-cross moves on,
# this fails with the new hex to paste there.
import importlib.util
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tafel_host.update import bundle_build, keys
from test_update_device import compiled

TESTS = Path(__file__).resolve().parents[1]


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_firmware_tests_app_bundle_is_what_the_builder_makes():
    device = bundle_build.device_update()  # the firmware's `update`, which the crypto tests import
    fixture = _load(TESTS / "firmware" / "appbundle.py", "appbundle_fixture")
    crypto = _load(TESTS / "crypto" / "test_bundle_read.py", "bundle_read_fixture")
    key = Ed25519PrivateKey.from_private_bytes(crypto.SECRET)
    assert keys.public_bytes(key) == crypto.PUBLIC
    files = [
        ("main.py", fixture.MAIN),
        ("lib/tafel/words.txt", crypto.WORDS),
        ("lib/tafel/version.mpy", compiled('VERSION = "%s"\n' % fixture.VERSION, "lib/tafel/version.py")),
        ("update/trusted.mpy", compiled("TRUSTED_KEYS = ()\n", "update/trusted.py")),
    ]
    data = bundle_build.pack(files, fixture.VERSION, key, 6, min_boot=1)
    assert data == fixture.APP, "the format or mpy-cross changed: new APP hex:\n" + data.hex()
    m = bundle_build.read_manifest_unchecked(data)
    assert fixture.HEAD == m.body_start
    device.bundle.check_app(m)  # a whole application
