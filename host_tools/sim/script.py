# Key scripts for `tafel sim --script`: whitespace-separated tokens, parsed into steps with their place.
import re
from collections import namedtuple

from ..lang import say
from .device import KEYS

TOKENS = "keys 0-9 A-D * #, rotary CW CCW PUSH, wait:<ms>, snap:<name>, power-cut"  # in English; say("sim_tokens")
Step = namedtuple("Step", "kind arg line col")  # kind: "key", "wait", "snap" or "power-cut"
_SNAP_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\Z")
_MS = re.compile(r"[0-9]+\Z")


class ScriptError(Exception):
    """A key script that cannot be run, with the place of the problem (exit code 2)."""


def parse_script(text, source="script"):
    """The steps of a key script: whitespace-separated tokens; lines starting with // are comments."""
    steps, snaps = [], {}
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("//"):
            continue
        for match in re.finditer(r"\S+", line):
            steps.append(_step(match.group(), number, match.start() + 1, source, snaps))
    return steps


def _step(token, line, col, source, snaps):
    def fail(message):
        raise ScriptError("%s:%d:%d: %s" % (source, line, col, message))

    if token in KEYS:
        return Step("key", token, line, col)
    if token == "power-cut":
        return Step("power-cut", None, line, col)
    kind, sep, arg = token.partition(":")
    if sep and kind == "wait":
        if not _MS.match(arg):
            fail(say("sim_wait_ms", token))
        return Step("wait", int(arg), line, col)
    if sep and kind == "snap":
        if not _SNAP_NAME.match(arg):
            fail(say("sim_snap_name", arg))
        if arg in snaps:
            fail(say("sim_snap_again", arg, snaps[arg]))
        snaps[arg] = line
        return Step("snap", arg, line, col)
    hint = ""
    if token.upper() in KEYS:
        hint = say("sim_capitals", token.upper())
    elif token in ("wait", "snap"):
        hint = say("sim_write_" + token)
    elif token.startswith("//"):
        hint = say("sim_comment")
    fail(say("sim_unknown_token", token, hint, say("sim_tokens")))
