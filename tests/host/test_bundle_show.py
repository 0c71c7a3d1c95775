# `tafel bundle show` says what a device says, in one plain sentence: bundles cut short at every part,
# trailing data, a tampered manifest, the same version with other content, bundles that are no whole
# application or whose version module disagrees with the manifest, and the install rules of
# `--running` (wrong_mpy, needs_boot) with this checkout's devices as the default. The device's reader
# on the unix port refuses the same (tests/host/mpy_verify.py); staging them on a device is
# tests/host/test_update_device.py. The bundle and keys are test_bundle.py's.
import pytest

from tafel_host.cli import main
from tafel_host.update import bundle_build, bundle_check
from tafel_host.update.refusals import sentence
from test_bundle import VERSION, fmt, on_device, setup, variant  # noqa: F401 (setup: the fixture)


def show(setup, path, *more):
    """(exit code, output) of `tafel bundle show` trusting the test key."""
    import io
    from contextlib import redirect_stdout

    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["bundle", "show", str(path), "--pub", str(setup.dir / "keys" / "signing.pub")] + list(more))
    return code, out.getvalue()


def refusal(output):
    """The one REFUSED line of show's output."""
    lines = [line for line in output.splitlines() if line.startswith("REFUSED")]
    assert len(lines) == 1, output
    return lines[0]


def said(key, detail=None):
    return "REFUSED: %s (%s)" % (sentence(key, detail), key)


def write(setup, name, data):
    path = setup.dir / name
    path.write_bytes(data)
    return path


def test_a_bundle_cut_short_anywhere_or_with_more_after_it_is_refused_in_a_sentence(setup):
    m = setup.manifest
    middle = m.files[len(m.files) // 2]
    signature_at = fmt.HEADER_SIZE + len(m.raw)
    cuts = [(12, ("truncated", "header")), (fmt.HEADER_SIZE + 7, ("truncated", "manifest")),
            (signature_at + 10, ("truncated", "signature")), (middle.offset + 3, ("truncated", middle.path))]
    for n, (key, detail) in cuts:
        code, out = show(setup, write(setup, "cut.bundle", setup.data[:n]))
        assert code == 1 and refusal(out) == said(key, detail), (n, out)
        assert "not a Tafel update bundle" not in out
    code, out = show(setup, write(setup, "more.bundle", setup.data + b"\0" * 10))
    assert code == 1 and refusal(out) == said("trailing_data")
    # the device's reader refuses each the same way
    got = on_device(setup, [{"cut": n, "running": "0.1.0"} for n, _ in cuts] + [{"append": "00" * 10}])
    assert got == [want for _, want in cuts] + [("trailing_data", None)]


def test_only_a_wrong_magic_is_not_a_bundle(setup):
    data = bytearray(setup.data)
    data[fmt.HEADER_SIZE + 4] ^= 0x20  # the manifest's first line: "app" -> "aPp"
    code, out = show(setup, write(setup, "manifest.bundle", bytes(data)))
    assert code == 1 and refusal(out) == said("bad_signature")
    assert "not a Tafel update bundle" not in out
    code, out = show(setup, write(setup, "magic.bundle", b"TAFELUPX" + setup.data[8:]))
    assert code == 1 and refusal(out) == said("not_bundle")


def test_the_same_version_with_other_content_is_refused(setup):
    # Rebuilt as the same version with one file changed: installed already on a device running it,
    # and its bodies under the original's signed manifest do not match.
    changed = [(p, d + b"\0" if p == "ui/home.mpy" else d) for p, d in setup.files]
    other = bundle_build.pack(changed, VERSION, setup.key, setup.mpy)
    path = write(setup, "same-version.bundle", other)
    code, out = show(setup, path, "--running", VERSION)
    assert code == 1 and refusal(out) == said("same_version", VERSION)
    assert on_device(setup, [{"running": VERSION}], path) == [("same_version", VERSION)]
    other_m = bundle_build.read_manifest_unchecked(other)
    mixed = write(setup, "mixed-same.bundle", setup.data[:setup.manifest.body_start] + other[other_m.body_start:])
    code, out = show(setup, mixed)
    assert code == 1 and refusal(out).endswith("(bad_file)") and "ui/home.mpy" in refusal(out)


def test_a_bundle_that_is_no_whole_application_is_refused(setup):
    cases = [("main.py", "main.py"), ("update/trusted.mpy", "update/trusted.mpy"),
             ("lib/tafel/version.mpy", "lib/tafel/version.mpy")]
    for left_out, detail in cases:
        files = [(p, d) for p, d in setup.files if p != left_out]
        path = write(setup, "without.bundle", bundle_build.pack(files, VERSION, setup.key, setup.mpy))
        code, out = show(setup, path, "--running", "0.1.0")
        assert code == 1 and refusal(out) == said("incomplete_app", detail), out
        assert on_device(setup, [{"running": "0.1.0", "whole": True}], path) == [("incomplete_app", detail)]
    path = write(setup, "empty.bundle", bundle_build.pack([], VERSION, setup.key, setup.mpy))
    code, out = show(setup, path)
    assert code == 1 and refusal(out) == said("incomplete_app") and "no files at all" in out
    assert on_device(setup, [{"running": "0.1.0", "whole": True}], path) == [("incomplete_app", None)]


def test_a_version_module_that_says_another_version_is_refused(setup, monkeypatch):
    files, mpy = bundle_build.compile_tree(bundle_build.find_mpy_cross(), None, "0.1.9", setup.store)
    path = write(setup, "other-version.bundle", bundle_build.pack(files, VERSION, setup.key, mpy))
    code, out = show(setup, path, "--running", "0.1.0")
    assert code == 1 and refusal(out) == said("version_mismatch", ("0.1.9", VERSION))
    # a version module cut short (signed as it is): MicroPython would hang reading it; unreadable
    cut = [(p, d[:30] if p == "lib/tafel/version.mpy" else d) for p, d in setup.files]
    path_cut = write(setup, "cut-version.bundle", bundle_build.pack(cut, VERSION, setup.key, setup.mpy))
    code, out = show(setup, path_cut)
    assert code == 1 and refusal(out) == said("version_mismatch", (None, VERSION))
    # without a MicroPython to read it with, show says so plainly and refuses nothing it cannot check

    def nowhere():
        from tafel_host.sim.launcher import SetupError

        raise SetupError("none here")

    monkeypatch.setattr("tafel_host.sim.launcher.find_micropython", nowhere)
    code, out = show(setup, path)
    assert code == 0 and "lib/tafel/version.mpy NOT CHECKED" in out and "no MicroPython" in out


def test_running_applies_the_devices_mpy_and_boot_rules(setup):
    boot = bundle_check.device_boot_version()
    assert boot >= 2 and bundle_check.device_mpy() == setup.mpy == 6
    path = write(setup, "mpy5.bundle", bundle_build.pack(setup.files, VERSION, setup.key, 5))
    code, out = show(setup, path, "--running", "0.1.0")
    assert code == 1 and refusal(out) == said("wrong_mpy", (5, 6))
    code, out = show(setup, path, "--running", "0.1.0", "--mpy", "5")  # a device importing version 5
    assert code == 0 and "installable over 0.1.0" in out
    assert "NOT CHECKED" in out  # this MicroPython imports version 6, not the bundle's 5
    newer, _ = variant(setup, "newer-boot.bundle", min_boot=boot + 1)
    code, out = show(setup, newer, "--running", "0.1.0")
    assert code == 1 and refusal(out) == said("needs_boot", (boot + 1, boot))
    code, out = show(setup, newer, "--running", "0.1.0", "--boot", str(boot + 1))
    assert code == 0 and "installable over 0.1.0" in out
    code, out = show(setup, setup.path, "--running", "0.1.0")
    assert code == 0 and "lib/tafel/version.mpy says %s" % VERSION in out


@pytest.mark.parametrize("key", ["incomplete_app", "version_mismatch"])
def test_the_new_refusals_have_their_own_sentences(key):
    assert not sentence(key, None).startswith("Refused (")
    assert not sentence(key, ("main.py", "1.0")).startswith("Refused (")
