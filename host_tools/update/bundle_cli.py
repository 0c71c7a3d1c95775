# `tafel bundle build` and `tafel bundle show`: signed update bundles (docs/updates.md).
#
#   tafel bundle build -o tafel.bundle                 # this checkout's app, version from lib/tafel/version.py
#   tafel bundle build --key PATH --version 0.2.0 --min-boot 1 --allow-downgrade -o FILE
#   tafel bundle show FILE                             # the manifest, then a check as the device makes it
#   tafel bundle show FILE --running 0.2.0             # ... every rule a device running 0.2.0 applies
#   tafel bundle show FILE --running 0.2.0 --boot 1 --mpy 6   # ... a device with other boot code or MicroPython
#
# show checks with the device's own code (the core's tafel/bundle/; bundle_check.py): the
# signature against the trust store (firmware/update/trusted.py, or --trust-store / --pub), a whole
# application (main.py, trust store, version module), every file's size and SHA-256 after
# inflating, the version module's VERSION (in a MicroPython subprocess, or said to be unchecked);
# with --running the install rules too, for this checkout's boot code and .mpy version unless
# --boot / --mpy say otherwise. A refusal is one sentence (refusals.py) and the device's key:
# "REFUSED: The bundle holds 0.1.0, older than ... (downgrade)".
# Exit codes: 0 built / accepted, 1 refused (show), 2 cannot be done (no key,
# no mpy-cross, unreadable file).
import sys
from pathlib import Path

from tafel.bundle import manifest as fmt
from tafel.bundle.errors import UpdateError
from tafel.bundle.parts import APP_FILES

from ..exits import Exit
from ..lang import say
from . import bundle_check, keys
from .bundle_build import BundleProblem, build, describe, read_manifest_unchecked


def add_parser(commands):
    cmd = commands.add_parser("bundle", help=say("hp_bundle"), description=say("hp_bundle_d"))
    sub = cmd.add_subparsers(dest="action", metavar=say("m_action"), required=True)

    b = sub.add_parser("build", help=say("hp_build"), description=say("hp_build_d"))
    b.add_argument("-o", "--output", metavar=say("m_file"), help=say("hp_build_output"))
    b.add_argument("--key", metavar=say("m_path"), help=say("hp_build_key", keys.default_key_path()))
    b.add_argument("--version", metavar="X.Y.Z", help=say("hp_build_version"))
    b.add_argument("--min-boot", type=int, default=0, metavar="N", help=say("hp_build_min_boot"))
    b.add_argument("--allow-downgrade", action="store_true", help=say("hp_build_downgrade"))
    b.add_argument("--no-compress", action="store_true", help=say("hp_build_no_compress"))
    b.add_argument("--trust-store", metavar=say("m_path"), help=say("hp_build_trust"))
    b.add_argument("--mpy-cross", metavar=say("m_path"), help=say("hp_build_mpy_cross"))
    b.set_defaults(run=run_build)

    s = sub.add_parser("show", help=say("hp_show"), description=say("hp_show_d"))
    s.add_argument("file", metavar=say("m_file"))
    keys.add_trust_arguments(s)
    s.add_argument("--running", metavar="X.Y.Z", help=say("hp_show_running"))
    s.add_argument("--boot", type=int, default=None, metavar="N", help=say("hp_show_boot"))
    s.add_argument("--mpy", type=int, default=None, metavar="N", help=say("hp_show_mpy"))
    s.add_argument("--files", action="store_true", help=say("hp_show_files"))
    s.set_defaults(run=run_show)


def run_build(args):
    try:
        output = args.output
        if output is None:
            from .bundle_build import source_version

            output = "tafel-%s.bundle" % (args.version or source_version())
        built = build(output, args.key, args.version, args.min_boot, args.allow_downgrade,
                      not args.no_compress, args.trust_store, args.mpy_cross)
    except (BundleProblem, keys.KeyProblem) as err:
        print("tafel: %s" % err, file=sys.stderr)
        return Exit.USAGE
    m = built.manifest
    print("built %s: version %s, %d files, %s bytes (%s on the device)" % (
        built.path, m.version, len(m.files), _n(built.size), _n(built.files_size)))
    print("signed with key %s; min-boot %d%s" % (
        m.key_id.hex(), m.min_boot, ", downgrade allowed" if m.allow_downgrade else ""))
    return Exit.OK


def run_show(args):
    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as err:
        print("tafel: cannot read %s: %s" % (path, err.strerror or err), file=sys.stderr)
        return Exit.USAGE
    try:
        trusted = keys.trusted_keys(args)
        rules = bundle_check.Rules(args.running, args.boot, args.mpy)
    except (keys.KeyProblem, BundleProblem) as err:
        print("tafel: %s" % err, file=sys.stderr)
        return Exit.USAGE
    print("bundle     %s (%s bytes)" % (path, _n(len(data))))
    try:
        m = read_manifest_unchecked(data)
    except UpdateError:
        m = None
        print("manifest   unreadable (the check below says why)")
    if m is not None:
        _print_manifest(m, trusted, args.files)
    if rules.running is not None:
        print("device     runs %s, boot code %d%s, .mpy version %d%s" % (
            rules.running, rules.boot, "" if args.boot is not None else " (this checkout's bootsel.py)",
            rules.mpy, "" if args.mpy is not None else " (what this project's mpy-cross writes)"))
    try:
        m, version = bundle_check.check(data, trusted, rules)
    except UpdateError as err:
        print("REFUSED: %s" % describe(err))
        return Exit.FAILED
    print("verified   signature and %d files, a whole application (%s)" % (
        len(m.files), ", ".join(APP_FILES)))
    if version.checked:
        print("app        lib/tafel/version.mpy says %s, as the manifest (read as the device reads it)" % version.found)
    else:
        print("app        lib/tafel/version.mpy NOT CHECKED against the manifest's %s: %s" % (m.version, version.why))
    if rules.running is not None:
        print("installable over %s" % rules.running)
    return Exit.OK


def _print_manifest(m, trusted, files):
    print("version    %s" % m.version)
    print("min-boot   %d" % m.min_boot)
    print("downgrade  %s" % ("allowed (signed in)" if m.allow_downgrade else "refused"))
    print("mpy        %d" % m.mpy)
    print("key id     %s%s" % (m.key_id.hex(), "" if any(
        fmt.key_id(k) == m.key_id for k in trusted) else " (not trusted here)"))
    compressed = sum(1 for e in m.files if e.encoding == fmt.DEFLATE)
    print("files      %d, %s bytes on the device, %s in the bundle (%d compressed)" % (
        len(m.files), _n(m.files_size), _n(sum(e.stored for e in m.files)), compressed))
    if files:
        width = max([len(e.path) for e in m.files] + [4])
        print("  %-*s %8s %8s %-7s %s" % (width, "PATH", "SIZE", "STORED", "ENC", "SHA-256"))
        for e in m.files:
            print("  %-*s %8d %8d %-7s %s" % (width, e.path, e.size, e.stored, e.encoding, e.sha256.hex()))


def _n(value):
    return "{:,}".format(value)
