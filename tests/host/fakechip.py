# Test helper: a fake chip process for SimDevice (host_tools/sim/device.py), speaking the wire's frames.
#
#   SimDevice([sys.executable, "-c", fakechip.script(["ok asleep", "ok"], then="exit")], profile=fakechip.PROFILE)
#
# It reads the launcher's commands from --wire-in (firmware/sim/wire.py's format), takes the board's
# wiring and nets, says "ready", and answers every G with the next line of `replies`; after the last
# one it does `then`: "exit" ends with status 1 and "broken chip" on stderr, "wait" reads until quit.
import json

from simlink import ROOT

PROFILE = json.loads((ROOT / "hardware" / "boards" / "esp32-devkitc-ssd1306.json").read_text())

_BODY = '''
import struct, sys
args = sys.argv[1:]
inp = open(args[args.index("--wire-in") + 1], "rb", buffering=0)
out = open(args[args.index("--wire-out") + 1], "wb", buffering=0)
def say(line):
    out.write(b"R" + struct.pack("<I", len(line)) + line.encode())
def command():
    head = inp.read(3)
    if len(head) < 3:
        return None
    size = head[1] | head[2] << 8
    return head[:1], inp.read(size) if size else b""
seen = set()
while seen != {b"B", b"N"}:
    seen.add(command()[0])
say("ready")
replies = REPLIES
while True:
    got = command()
    if got is None or got[0] == b"Q":
        break
    if got[0] != b"G":
        continue
    if not replies:
        if THEN == "exit":
            sys.exit("broken chip")
        continue
    say(replies.pop(0))
'''


def script(replies, then="wait"):
    """The fake chip's program, for `python -c`."""
    return "REPLIES = %r\nTHEN = %r\n" % (list(replies), then) + _BODY
