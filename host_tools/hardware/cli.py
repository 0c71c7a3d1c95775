# `tafel hardware`: the board profiles checked, and each board's wiring table, wiring diagram and BOM generated.
#
#   tafel hardware check               # every profile in hardware/boards against the ESP32 pin rules
#   tafel hardware docs                # hardware/<board>/wiring.md, wiring.svg, bom.md (make hardware)
#   tafel hardware docs --out DIR      # the same into DIR/<board>/ (the tests compare with the committed ones)
#
# The pieces: model.py (what a profile means as wires), check.py
# (the rules), docs.py and svg.py (the documents).
import sys

from ..exits import Exit
from ..lang import say
from .check import check
from .docs import HardwareError, generate
from .model import load_profiles, repo_root


def add_parser(commands):
    cmd = commands.add_parser("hardware", help=say("hp_hardware"), description=say("hp_hardware_d"))
    actions = cmd.add_subparsers(dest="action", required=True, metavar=say("m_action"))
    check_cmd = actions.add_parser("check", help=say("hp_hw_check"), description=say("hp_hw_check_d"))
    check_cmd.set_defaults(run=run_check)
    docs = actions.add_parser("docs", help=say("hp_hw_docs"), description=say("hp_hw_docs_d"))
    docs.add_argument("--out", metavar=say("m_dir"), help=say("hp_hw_docs_out"))
    docs.set_defaults(run=run_docs)
    return cmd


def run_check(args):
    bad = 0
    for name, profile in load_profiles().items():
        problems = check(profile, name)
        print("%s: %s" % (name, say("hw_ok") if not problems else say("hw_problems", len(problems))))
        for problem in problems:
            print("  " + problem)
        bad += bool(problems)
    return Exit.FAILED if bad else Exit.OK


def run_docs(args):
    status = 0
    try:
        written = generate(out=args.out)
    except HardwareError as err:
        written = err.args[1]
        print("tafel hardware: %s" % err.args[0], file=sys.stderr)
        status = 2
    except (OSError, ValueError) as err:  # an unreadable file, bad JSON
        print("tafel hardware: %s" % err, file=sys.stderr)
        return Exit.USAGE
    root = repo_root()
    for path in written:
        try:
            shown = path.resolve().relative_to(root)
        except ValueError:
            shown = path
        print(shown)
    return status
