# The device side of tests/host/test_rescue.py: real LittleFS images, made and mounted on the MicroPython unix port.
#
#   micropython tests/host/mpy_rescue_image.py REPO build OUT.img [reused]   plays an evening, writes the raw flash
#   micropython tests/host/mpy_rescue_image.py REPO build OUT.img blocks N   the evening on N blocks
#   micropython tests/host/mpy_rescue_image.py REPO mount IMG                does LittleFS mount it?
#
# build: the storage tests' evening (tests/firmware/evening.py: game A, 30
# rounds, an edit, an undo, finished; game B started) with a long game C
# (finished, its closed journal spans two flash blocks) played before B, and
# B played on to 75 rounds (running: several live segments). It writes all
# 512 blocks (erased = 0xFF) and prints one JSON line: {"games": {id: [hex
# payload, ...]}, "running": id}, the records each game was acknowledged with.
# With "reused", /data/keep/games-000001.tj also holds another game that
# was given id 1 (what an older firmware's reused ids left set aside), listed
# as "foreign": [hex payload, ...].
# mount: prints {"mounts": true|false}.
import json
import sys

REPO = sys.argv[1]
sys.path.insert(0, REPO + "/tests/firmware")
sys.path.insert(0, REPO + "/firmware")
sys.path.insert(0, REPO + "/lib")

from binascii import hexlify  # noqa: E402

import evening  # noqa: E402
from sim.flashdev import BLOCK_SIZE, FlashDev  # noqa: E402

SEATS_C = ("Gert", "Hanna", "Ida", "Jan")
C_ROUNDS = 300
B_ROUNDS = 75


def plan():
    out = evening.steps()
    at = [name for name, _ in out].index("create B")
    c = [("create C", evening._create("C", SEATS_C, 2000, 1000000))]
    c += [("round C%d" % (r + 1), evening._round("C", r)) for r in range(C_ROUNDS)]
    c.append(("finish C", evening._finish("C", 5500)))
    out[at:at] = c
    at = [name for name, _ in out].index("round B1") + 1
    out[at:at] = [("round B%d" % (r + 1), evening._round("B", r)) for r in range(1, B_ROUNDS)]
    return out


def build(path, reused, blocks=None):
    # blocks: a file system of that many blocks, with the evening only (a larger chip's)
    dev, store, _ = evening.boot(blocks=blocks or evening.BLOCKS)
    ctx = evening.Context(store)
    for _, step in evening.steps() if blocks else plan():
        step(ctx)
    foreign = []
    if reused:
        from tafel import journal
        from tafel.game import Game

        other = Game(("Otto", "Paula"), "standard", 500, None, 900, 1)
        foreign.append(other.create_record())
        for r in range(3):
            rec = other.round_record({"Otto": 0, "Paula": 10 + r}, "Otto")
            other.apply(rec)
            foreign.append(rec)
        store.disk.mkdir("keep")
        store.disk.write_new("keep/games-000001.tj", b"".join(journal.frame(i, foreign[i]) for i in range(len(foreign))))
    erased = b"\xff" * BLOCK_SIZE
    with open(path, "wb") as f:
        for block in dev.image:
            f.write(erased if block is None else block)
    games = {}
    for game_id, recs in ctx.model.records.items():
        games[str(game_id)] = [hexlify(r).decode() for r in recs]
    print(json.dumps({"games": games, "running": store.running_game(),
                      "foreign": [hexlify(r).decode() for r in foreign]}))


def mount(path):
    dev = FlashDev()
    with open(path, "rb") as f:
        for block in range(len(dev.image)):
            data = f.read(BLOCK_SIZE)
            dev.image[block] = None if data == b"\xff" * BLOCK_SIZE else bytearray(data)
    import vfs

    try:
        vfs.VfsLfs2(dev, mtime=False)
        ok = True
    except OSError:
        ok = False
    print(json.dumps({"mounts": ok}))


if sys.argv[2] == "build":
    build(sys.argv[3], "reused" in sys.argv[4:], int(sys.argv[5]) if sys.argv[4:5] == ["blocks"] else None)
else:
    mount(sys.argv[3])
