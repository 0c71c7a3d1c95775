# `tafel bundle build/show` and the device's verification of real bundles on the MicroPython unix port.
#
# A bundle of this checkout is built once per module (keys and trust store in a temporary
# folder); the device side runs in a micropython subprocess (tests/host/mpy_verify.py), many
# cases per process. The tamper suite flips each header byte, a byte of every manifest field,
# each signature byte and the first, middle and last byte of every file body; then truncation,
# oversize, foreign and swapped keys, downgrades and replays, mismatched parts.
import json
import subprocess
from pathlib import Path

import pytest

from tafel.bundle import manifest as fmt
from tafel.bundle import reader
from tafel.bundle.errors import UpdateError
from tafel_host.cli import main
from tafel_host.sim.launcher import find_micropython
from tafel_host.update import bundle_build, keys

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
RUNNER = Path(__file__).resolve().parent / "mpy_verify.py"
VERSION = "0.2.0"



class Setup:
    pass


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    s = Setup()
    s.dir = tmp_path_factory.mktemp("bundle")
    s.store = s.dir / "trusted.py"
    s.store.write_text((FIRMWARE / "update" / "trusted.py").read_text())
    s.key_path, _, s.public = keys.generate(s.dir / "keys")
    keys.add_to_trust_store(s.store, s.public, "test")
    s.key = keys.load_private(s.key_path)
    _, _, s.stranger_public = keys.generate(s.dir / "stranger", "stranger")
    s.stranger = keys.load_private(s.dir / "stranger" / "stranger.key")
    s.path = s.dir / "tafel.bundle"
    assert main(["bundle", "build", "--key", str(s.key_path), "--trust-store", str(s.store),
                 "--version", VERSION, "-o", str(s.path)]) == 0
    s.data = s.path.read_bytes()
    s.manifest = bundle_build.read_manifest_unchecked(s.data)
    # The compiled files once more, for variants packed with other manifests.
    s.files, s.mpy = bundle_build.compile_tree(bundle_build.find_mpy_cross(), REPO, VERSION, s.store)
    return s


def variant(setup, name, version=VERSION, key=None, **options):
    data = bundle_build.pack(setup.files, version, key or setup.key, setup.mpy, **options)
    path = setup.dir / name
    path.write_bytes(data)
    return path, data


def on_device(setup, cases, bundle=None, keys_=None):
    """Run verify_bundle on the unix port for each case; [(key or "ok", detail)]."""
    spec = {
        "bundle": str(bundle or setup.path),
        "keys": [k.hex() for k in (keys_ if keys_ is not None else [setup.public])],
        "cases": cases,
    }
    spec_path = setup.dir / "cases.json"
    spec_path.write_text(json.dumps(spec))
    result = subprocess.run([str(find_micropython()), str(RUNNER), str(FIRMWARE), str(spec_path)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line[0] for line in lines] == list(range(len(cases))), result.stdout[-2000:]
    return [(line[1], line[2]) for line in lines]


# ---- building ------------------------------------------------------------------------------


def test_the_unix_port_accepts_the_bundle(setup):
    assert on_device(setup, [{"running": "0.1.0"}, {"running": "0.1.0", "file": True}]) == [("ok", VERSION)] * 2


def test_what_goes_into_the_bundle(setup):
    m = setup.manifest
    paths = [e.path for e in m.files]
    sources = bundle_build.sources(REPO)
    assert len(paths) == len(sources)
    assert "main.py" in paths
    assert not any(p.startswith("sim/") for p in paths)
    # the boot files stay at the flash's root as the first install put them: no update touches them
    assert not any(p.startswith(("boot.", "bootsel.")) for p in paths)
    for path in paths:
        assert path == "main.py" or path.endswith(".mpy"), path
    for needed in ("lib/tafel/version.mpy", "lib/tafel/game.mpy", "lib/tafel/bundle/reader.mpy",
                   "update/stage.mpy", "update/trusted.mpy"):
        assert needed in paths
    assert (m.version, m.min_boot, m.allow_downgrade, m.mpy, m.window) == (VERSION, 0, False, 6, fmt.WINDOW)
    assert m.key_id == fmt.key_id(setup.public)
    assert m.total_size == len(setup.data)
    deflated = [e for e in m.files if e.encoding == "deflate"]
    assert len(deflated) > len(m.files) // 2
    assert all(e.stored < e.size for e in deflated)
    assert sum(e.stored for e in m.files) < m.files_size


def test_installed_files_run_on_the_unix_port(setup, tmp_path):
    target = tmp_path / "device"
    target.mkdir()
    assert on_device(setup, [{"running": "0.1.0", "install": str(target)}]) == [("ok", VERSION)]
    assert (target / "main.py").read_bytes() == (FIRMWARE / "main.py").read_bytes()
    assert not (target / "boot.py").exists() and not (target / "bootsel.mpy").exists()
    assert not (target / "sim").exists()
    script = (
        "import sys\n"
        "sys.path[:] = [%r, %r]\n"
        "from tafel.version import VERSION\n"
        "from update.trusted import TRUSTED_KEYS\n"
        "import tafel.bundle.reader, tafel.game\n"
        "print(VERSION, TRUSTED_KEYS[-1].hex() if hasattr(TRUSTED_KEYS[-1], 'hex') else '', "
        "tafel.bundle.reader.__file__)\n" % (str(target), str(target / "lib")))
    result = subprocess.run([str(find_micropython()), "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr + result.stdout
    version, public, module_file = result.stdout.split()
    assert version == VERSION  # the manifest and the device's own version agree
    assert public in ("", setup.public.hex())
    assert module_file.endswith("lib/tafel/bundle/reader.mpy")


def test_builds_are_reproducible(setup):
    again = setup.dir / "again.bundle"
    bundle_build.build(again, setup.key_path, VERSION, trust_store=setup.store)
    assert again.read_bytes() == setup.data


def test_version_comes_from_version_py(setup, capsys):
    from tafel.version import VERSION as SOURCE

    assert bundle_build.source_version() == SOURCE
    path, _ = variant(setup, "same-files.bundle")
    assert path.read_bytes() == setup.data  # build() is compile_tree() + pack()


def test_no_compress_stores_every_file_raw(setup):
    _, data = variant(setup, "raw.bundle", compress=False)
    m = bundle_build.read_manifest_unchecked(data)
    assert {e.encoding for e in m.files} == {"raw"}
    assert len(data) > len(setup.data)
    assert on_device(setup, [{"running": "0.1.0"}], setup.dir / "raw.bundle") == [("ok", VERSION)]


def test_build_refusals(setup, tmp_path, capsys):
    out = str(tmp_path / "x.bundle")
    # a key the bundled trust store does not hold: the new version would lock its owner out
    assert main(["bundle", "build", "--key", str(setup.dir / "stranger" / "stranger.key"),
                 "--trust-store", str(setup.store), "-o", out]) == 2
    assert "not in the trust store" in capsys.readouterr().err
    assert main(["bundle", "build", "--key", str(tmp_path / "none.key"), "-o", out]) == 2
    assert "tafel keygen" in capsys.readouterr().err
    assert main(["bundle", "build", "--key", str(setup.key_path), "--trust-store", str(setup.store),
                 "--version", "1.x", "-o", out]) == 2
    assert "1.x" in capsys.readouterr().err
    assert main(["bundle", "build", "--key", str(setup.key_path), "--trust-store", str(setup.store),
                 "--mpy-cross", str(tmp_path / "nothing"), "-o", out]) == 2
    assert "mpy-cross" in capsys.readouterr().err
    assert not Path(out).exists()


# ---- the tamper suite (on the unix port) ----------------------------------------------------------


def header_expectation(setup, offset):
    if offset < 8:
        return "not_bundle"
    if offset < 10:
        return "format"
    if offset < 12:
        length = int.from_bytes(bytes(b ^ (1 if i + 10 == offset else 0)
                                      for i, b in enumerate(setup.data[10:12])), "big")
        return "too_large" if length > fmt.MAX_MANIFEST else "bad_signature"
    return "foreign_key"


def manifest_flips(setup):
    # One byte in every field of every line: names and values of the six header lines, and
    # of each file line one field in turn (all five for the first and the last file).
    start = fmt.HEADER_SIZE
    raw = setup.manifest.raw
    offsets = []
    position = 0
    lines = raw.split(b"\n")[:-1]
    for number, line in enumerate(lines):
        fields = line.split(b" ")
        starts = []
        column = 0
        for field in fields:
            starts.append(column)
            column += len(field) + 1
        if number < 6:
            chosen = range(len(fields))
        elif number in (6, len(lines) - 1):
            chosen = range(len(fields))
        else:
            chosen = [1 + number % 5]
        for index in chosen:
            offsets.append(start + position + starts[index] + len(fields[index]) // 2)
        offsets.append(start + position + len(line))  # the newline
        position += len(line) + 1
    return offsets


def test_every_signed_byte_and_file_byte_flipped_is_refused(setup):
    m = setup.manifest
    cases, expected = [], []
    for offset in range(fmt.HEADER_SIZE):
        cases.append({"flip": [offset, 1]})
        expected.append((header_expectation(setup, offset), None))
    for offset in manifest_flips(setup):
        cases.append({"flip": [offset, 0x20]})
        expected.append(("bad_signature", None))
    signature_at = fmt.HEADER_SIZE + len(m.raw)
    for i in range(fmt.SIGNATURE_SIZE):
        cases.append({"flip": [signature_at + i, 1 << (i % 8)]})
        expected.append(("bad_signature", None))
    for entry in m.files:
        for offset in sorted({entry.offset, entry.offset + entry.stored // 2, entry.offset + entry.stored - 1}):
            cases.append({"flip": [offset, 0x10]})
            expected.append(("bad_file", entry.path))
    results = on_device(setup, [dict(c, running="0.1.0") for c in cases])
    wrong = []
    for case, want, (key, detail) in zip(cases, expected, results):
        got = (key, detail[0] if key == "bad_file" else None)
        if want[0] in ("not_bundle", "format", "foreign_key", "too_large"):
            got = (key, None)
        if got != want:
            wrong.append((case, want, key, detail))
    assert not wrong, wrong[:10]
    assert len(cases) > 300


def test_truncated_and_oversized_bundles_are_refused(setup):
    m = setup.manifest
    first, middle, last = m.files[0], m.files[len(m.files) // 2], m.files[-1]
    signature_at = fmt.HEADER_SIZE + len(m.raw)
    cuts = [
        (0, ("truncated", "header")),
        (7, ("truncated", "header")),
        (fmt.HEADER_SIZE, ("truncated", "manifest")),
        (signature_at - 1, ("truncated", "manifest")),
        (signature_at + 63, ("truncated", "signature")),
        (m.body_start, ("truncated", first.path)),
        (middle.offset + 1, ("truncated", middle.path)),
        (len(setup.data) - 1, ("truncated", last.path)),
    ]
    cases = [{"cut": n, "running": "0.1.0"} for n, _ in cuts]
    cases += [
        {"append": "00", "running": "0.1.0"},
        {"append": "00" * 4096, "running": "0.1.0"},
        {"max": len(setup.data) - 1, "running": "0.1.0"},
        {"max": len(setup.data), "running": "0.1.0"},
        {"flip": [10, 0x80], "running": "0.1.0"},  # a manifest length past MAX_MANIFEST
    ]
    results = on_device(setup, cases)
    got = [(key, detail) for key, detail in results]
    assert got[:len(cuts)] == [want for _, want in cuts]
    assert got[len(cuts):] == [
        ("trailing_data", None),
        ("trailing_data", None),
        ("too_large", [len(setup.data), len(setup.data) - 1]),
        ("ok", VERSION),
        ("too_large", [int.from_bytes(setup.data[10:12], "big") | 0x8000, fmt.MAX_MANIFEST]),
    ]


def test_keys_foreign_swapped_and_several(setup):
    stranger_path, stranger_data = variant(setup, "stranger.bundle", key=setup.stranger)
    # signed by a key the device does not trust
    assert on_device(setup, [{"running": "0.1.0"}], stranger_path) == [
        ("foreign_key", fmt.key_id(setup.stranger_public).hex())]
    # the header names a trusted key, the signature is the stranger's: the signature fails
    swapped = setup.dir / "swapped.bundle"
    swapped.write_bytes(stranger_data[:12] + fmt.key_id(setup.public) + stranger_data[20:])
    assert on_device(setup, [{"running": "0.1.0"}], swapped) == [("bad_signature", None)]
    # a device trusting both accepts either signer, each by its own key
    both = [setup.stranger_public, setup.public]
    assert on_device(setup, [{"running": "0.1.0"}], stranger_path, both) == [("ok", VERSION)]
    assert on_device(setup, [{"running": "0.1.0"}], None, both) == [("ok", VERSION)]
    # the signature of one bundle on another one's manifest
    older_path, older = variant(setup, "older-for-splice.bundle", version="0.1.9")
    spliced = setup.dir / "spliced.bundle"
    signature_at = fmt.HEADER_SIZE + len(setup.manifest.raw)
    older_m = bundle_build.read_manifest_unchecked(older)
    older_signature_at = fmt.HEADER_SIZE + len(older_m.raw)
    spliced.write_bytes(older[:older_signature_at] + setup.data[signature_at:signature_at + 64]
                        + older[older_signature_at + 64:])
    assert on_device(setup, [{"running": "0.1.0"}], spliced) == [("bad_signature", None)]


def test_downgrades_replays_and_install_rules(setup):
    older_path, _ = variant(setup, "older.bundle", version="0.1.0")
    allowed_path, _ = variant(setup, "allowed.bundle", version="0.1.0", allow_downgrade=True)
    boot_path, _ = variant(setup, "boot.bundle", version="0.3.0", min_boot=2)
    # the current bundle on devices running various versions
    assert on_device(setup, [
        {"running": "0.1.0"}, {"running": "0.1.99"}, {"running": VERSION}, {"running": "0.2.1"},
        {"running": "1.0"}, {"running": "0.1.0", "mpy": 5}, {"running": "0.1.0", "mpy": 6},
    ]) == [
        ("ok", VERSION), ("ok", VERSION), ("same_version", VERSION), ("downgrade", [VERSION, "0.2.1"]),
        ("downgrade", [VERSION, "1.0"]), ("wrong_mpy", [6, 5]), ("ok", VERSION),
    ]
    # replay: the older bundle offered again once the newer one is installed
    assert on_device(setup, [{"running": VERSION}, {"running": "0.0.9"}], older_path) == [
        ("downgrade", ["0.1.0", VERSION]), ("ok", "0.1.0")]
    # a downgrade signed in on purpose goes through, and a reinstall of the same version too
    assert on_device(setup, [{"running": VERSION}, {"running": "0.1.0"}], allowed_path) == [
        ("ok", "0.1.0"), ("ok", "0.1.0")]
    # a bundle that needs a newer boot.py
    assert on_device(setup, [{"running": VERSION, "boot": 1}, {"running": VERSION, "boot": 2}], boot_path) == [
        ("needs_boot", [2, 1]), ("ok", "0.3.0")]


def test_mismatched_bodies_are_refused(setup):
    # The manifest and signature of this bundle with the bodies of one whose version.mpy differs.
    changed = [(p, d if p != "lib/tafel/version.mpy" else d.replace(b"0.2.0", b"0.2.1"))
               for p, d in setup.files]
    assert changed != setup.files
    other = bundle_build.pack(changed, VERSION, setup.key, setup.mpy)
    other_m = bundle_build.read_manifest_unchecked(other)
    mixed = setup.dir / "mixed.bundle"
    mixed.write_bytes(setup.data[:setup.manifest.body_start] + other[other_m.body_start:])
    assert on_device(setup, [{"running": "0.1.0"}], mixed) == [
        ("bad_file", ["lib/tafel/version.mpy", "sha256"])]


# ---- tafel bundle show (the device's code under CPython) --------------------------------------------


def test_show_prints_and_verifies(setup, capsys):
    args = ["bundle", "show", str(setup.path), "--trust-store", str(setup.store)]
    assert main(args + ["--files"]) == 0
    out = capsys.readouterr().out
    assert "version    %s" % VERSION in out
    assert "lib/tafel/version.mpy" in out and "verified   signature and %d files" % len(setup.manifest.files) in out
    assert main(args + ["--running", "0.1.0"]) == 0
    assert "installable over 0.1.0" in capsys.readouterr().out
    assert main(args + ["--running", "0.3.0"]) == 1
    assert "REFUSED: The bundle holds %s, older than the 0.3.0" % VERSION in capsys.readouterr().out


def test_show_refuses_what_the_device_refuses(setup, tmp_path, capsys):
    pub = setup.dir / "keys" / "signing.pub"
    assert main(["bundle", "show", str(setup.path)]) == 1  # the checkout's store lacks the test key
    assert "(foreign_key)" in capsys.readouterr().out
    assert main(["bundle", "show", str(setup.path), "--trust-store", str(setup.store.parent / "none.py")]) == 2
    capsys.readouterr()
    entry = setup.manifest.files[3]
    for offset, want in ((entry.offset + 1, "The file %s in the bundle does not match" % entry.path),
                         (fmt.HEADER_SIZE + 3, "(bad_signature)"),
                         (len(setup.data) + 10, "(trailing_data)")):
        data = bytearray(setup.data)
        if offset < len(data):
            data[offset] ^= 1
        else:
            data += b"junk"
        bad = tmp_path / "bad.bundle"
        bad.write_bytes(bytes(data))
        assert main(["bundle", "show", str(bad), "--pub", str(pub)]) == 1
        assert want in capsys.readouterr().out
    bad.write_bytes(setup.data[:5000])
    assert main(["bundle", "show", str(bad), "--pub", str(pub)]) == 1
    assert "REFUSED: The bundle ends early" in capsys.readouterr().out
    bad.write_bytes(b"PK\x03\x04 not a bundle at all")
    assert main(["bundle", "show", str(bad), "--pub", str(pub)]) == 1
    assert "REFUSED: This is not a Tafel update bundle" in capsys.readouterr().out


def test_cpython_and_the_unix_port_agree(setup, tmp_path):
    # The same flips checked by the device code under CPython (zlib) and MicroPython (deflate).
    m = setup.manifest
    import io

    offsets = [3, 15, fmt.HEADER_SIZE + 40, m.body_start - 1]
    offsets += [e.offset + e.stored // 3 for e in list(m.files)[::7]]
    here = []
    for offset in offsets:
        data = bytearray(setup.data)
        data[offset] ^= 4
        try:
            reader.verify_bundle(io.BytesIO(bytes(data)), [setup.public], "0.1.0", 0, None)
            here.append(("ok", VERSION))
        except UpdateError as err:
            detail = list(err.detail) if isinstance(err.detail, tuple) else err.detail
            here.append((err.key, detail[0] if err.key == "bad_file" else detail))
    there = on_device(setup, [{"flip": [o, 4], "running": "0.1.0"} for o in offsets])
    there = [(k, d[0] if k == "bad_file" else d) for k, d in there]
    assert here == there
