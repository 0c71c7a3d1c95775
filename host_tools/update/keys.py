# `tafel keygen`: the Ed25519 key pair that signs update bundles, and the firmware's trust store.
#
#   tafel keygen                        # signing.key (0600) and signing.pub in the user's data
#                                       # directory; the public key added to firmware/update/trusted.py
#   tafel keygen --out DIR --name NAME  # elsewhere, another name
#   tafel keygen --no-trust             # leave trusted.py alone (add the key later by hand)
#
# The private key (PEM, PKCS#8, not encrypted: protect the file) never leaves
# the laptop and is never written inside the source tree; the public key is
# a line of hex in NAME.pub and a bytes literal in the trust store, which
# goes onto the device with the firmware (docs/updates.md, "Keys").
# Exit codes: 0 done, 2 refused (the key exists, a path is unusable).
import ast
import datetime
import hashlib
import os
import re
import socket
import sys
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..app_files import root as repo_root
from ..exits import Exit
from ..lang import say
from ..paths import user_data_dir

KEY_NAME = "signing"


class KeyProblem(Exception):
    """A key or trust store that cannot be used; the text says why (exit code 2)."""


def default_key_dir():
    """Where `tafel keygen` puts the key pair: keys/ in Tafel's user data directory."""
    return user_data_dir() / "keys"


def default_key_path():
    """The private key `tafel bundle build` signs with unless --key says otherwise."""
    env = os.environ.get("TAFEL_SIGNING_KEY")
    return Path(env).expanduser() if env else default_key_dir() / (KEY_NAME + ".key")


def default_trust_store():
    return repo_root() / "firmware" / "update" / "trusted.py"


def key_id_hex(public):
    """The key id a bundle header names the key by (16 hex digits)."""
    return hashlib.sha256(bytes(public)).hexdigest()[:16]


# ---- key files ----------------------------------------------------------------


def generate(out_dir, name=KEY_NAME, force=False):
    """Make a key pair in out_dir: (private key path, public key path, public key bytes)."""
    out_dir = Path(out_dir).expanduser()
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
        raise KeyProblem(say("kg_name", name))
    private_path = out_dir / (name + ".key")
    public_path = out_dir / (name + ".pub")
    if not force:
        for path in (private_path, public_path):
            if path.exists():
                raise KeyProblem(say("kg_exists", path))
    try:
        out_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as err:
        raise KeyProblem(say("kg_cannot_create", out_dir, err.strerror or err)) from None
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    public = public_bytes(key)
    _write_private(private_path, pem, force)
    public_path.write_text(public.hex() + "\n")
    return private_path, public_path, public


def _write_private(path, data, force):
    # Created 0600 from the start (no moment where others may read it).
    if force and path.exists():
        path.unlink()
    try:
        fd = os.open(str(path), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as err:
        raise KeyProblem(say("kg_cannot_write", path, err.strerror or err)) from None
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    if os.name == "posix":
        os.chmod(str(path), 0o600)  # whatever the umask did


def load_private(path):
    """The Ed25519 private key in a PEM file (as keygen writes it)."""
    path = Path(path).expanduser()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise KeyProblem(say("kg_no_key", path)) from None
    except OSError as err:
        raise KeyProblem(say("kg_cannot_read", path, err.strerror or err)) from None
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as err:
        raise KeyProblem(say("kg_not_pem", path, err)) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyProblem(say("kg_not_ed25519", path))
    if os.name == "posix" and path.stat().st_mode & 0o077:
        print(say("kg_readable", path), file=sys.stderr)
    return key


def public_bytes(private_key):
    return private_key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def load_public(path):
    """32 public key bytes from a .pub file (64 hex digits, as keygen writes it)."""
    try:
        text = Path(path).expanduser().read_text().strip()
        public = bytes.fromhex(text)
    except (OSError, ValueError) as err:
        raise KeyProblem(say("kg_no_public", path, err)) from None
    if len(public) != 32:
        raise KeyProblem(say("kg_public_size", path, len(public)))
    Ed25519PublicKey.from_public_bytes(public)
    return public


# ---- the trust store (firmware/update/trusted.py) ------------------------------

_OPEN = "TRUSTED_KEYS = ("


def read_trust_store(path):
    """The public keys in a trusted.py (TRUSTED_KEYS), as a list of bytes."""
    path = Path(path)
    try:
        tree = ast.parse(path.read_text(), str(path))
    except (OSError, SyntaxError) as err:
        raise KeyProblem(say("kg_no_store", path, err)) from None
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["TRUSTED_KEYS"]:
            try:
                keys = ast.literal_eval(node.value)
            except ValueError:
                break
            if isinstance(keys, tuple) and all(isinstance(k, bytes) and len(k) == 32 for k in keys):
                return list(keys)
            break
    raise KeyProblem(say("kg_no_keys", path))


def add_to_trust_store(path, public, label):
    """Add a public key to a trusted.py; False if it was there already."""
    path = Path(path)
    if bytes(public) in read_trust_store(path):
        return False
    lines = path.read_text().splitlines(keepends=True)
    try:
        start = next(i for i, line in enumerate(lines) if line.startswith(_OPEN))
        end = next(i for i in range(start, len(lines)) if lines[i].rstrip() == ")")
    except StopIteration:
        raise KeyProblem(say("kg_no_tuple", path)) from None
    if lines[start].rstrip() != _OPEN:
        raise KeyProblem(say("kg_own_line", path))
    literal = 'b"' + "".join("\\x%02x" % b for b in public) + '",\n'
    lines[end:end] = ["    # %s %s\n" % (key_id_hex(public), label), "    " + literal]
    text = "".join(lines)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(str(tmp), str(path))
    if bytes(public) not in read_trust_store(path):  # pragma: no cover - the edit above is the only writer
        raise KeyProblem(say("kg_not_landed", path))
    return True


def add_trust_arguments(cmd, store_help=None):
    """--trust-store PATH and --pub FILE...: the keys a command accepts bundles from (store_help: what
    the trust store is to this command, in the current language; default: the accepted keys)."""
    cmd.add_argument("--trust-store", metavar=say("m_path"),
                     help=say("hp_trust_store", store_help or say("hp_trust_accepted")))
    cmd.add_argument("--pub", action="append", default=[], metavar=say("m_file"), help=say("hp_pub"))


def trusted_keys(args):
    """The public keys of add_trust_arguments' options: the trust store's, then each --pub. KeyProblem."""
    return read_trust_store(args.trust_store or default_trust_store()) + [load_public(p) for p in args.pub]


# ---- the command -----------------------------------------------------------------


def add_parser(commands):
    cmd = commands.add_parser("keygen", help=say("hp_keygen"), description=say("hp_keygen_d"))
    cmd.add_argument("--out", metavar=say("m_dir"), help=say("hp_keygen_out", default_key_dir()))
    cmd.add_argument("--name", default=KEY_NAME, help=say("hp_keygen_name"))
    cmd.add_argument("--force", action="store_true", help=say("hp_keygen_force"))
    trust = cmd.add_mutually_exclusive_group()
    trust.add_argument("--trust-store", metavar=say("m_path"), help=say("hp_keygen_trust"))
    trust.add_argument("--no-trust", action="store_true", help=say("hp_keygen_no_trust"))
    cmd.set_defaults(run=run_keygen)


def run_keygen(args):
    out_dir = Path(args.out).expanduser() if args.out else default_key_dir()
    try:
        private_path, public_path, public = generate(out_dir, args.name, args.force)
        print(say("kg_private", private_path))
        print(say("kg_public", public_path))
        print(say("kg_key_id", key_id_hex(public)))
        if not args.no_trust:
            store = Path(args.trust_store) if args.trust_store else default_trust_store()
            label = "%s (%s, %s)" % (args.name, socket.gethostname(), datetime.date.today().isoformat())
            add_to_trust_store(store, public, label)
            print(say("kg_trusted_by", store))
    except KeyProblem as err:
        print("tafel: %s" % err, file=sys.stderr)
        return Exit.USAGE
    return Exit.OK
