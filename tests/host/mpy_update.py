# The device side of tests/host/test_update_device.py: staging, switching, power cuts and
# rollback on an emulated flash chip, in one MicroPython unix-port process.
#
#   micropython tests/host/mpy_update.py REPO SPEC.json
#
# SPEC.json: {"keys": [hex], "v1": path, "v2": path, "case": NAME, ...} with the bundles
# built on CPython (host_tools/update/bundle_build.pack). Prints one JSON line: the case's result.
# Cases:
#   update    v1 installed (slot a) with games in /data, then v2 staged and switched
#   sweep     the update's write log; for every program/erase (clean and torn cut) the
#             flash is booted: a complete v1 or v2 (every file against its manifest), /data
#             byte for byte as before; then the transfer resumes and must end at v2
#   rollback  v2 switched, then boots that never confirm (an import that raises, a hang:
#             the watchdog resets): after bootsel.TRIES the old slot runs, with the note
#   tamper    bundles from spec["bad"] (path -> expected key): refused, v1 untouched; with each
#             refusal's detail ("detail PATH") and the bodies sent before it ("bodies PATH")
#   full      a flash too full for v2: refused at the head, nothing switched, games intact
import hashlib
import json
import sys

REPO = sys.argv[1]
sys.path.insert(0, REPO + "/lib")
sys.path.insert(0, REPO + "/firmware")

from binascii import hexlify, unhexlify  # noqa: E402

import vfs  # noqa: E402

import bootsel  # noqa: E402
from sim.flashdev import FlashDev, PowerCut, WriteLog  # noqa: E402
from store.fsys import Disk  # noqa: E402
from store.store import Store  # noqa: E402
from tafel.bundle import manifest as fmt  # noqa: E402
from tafel.bundle.errors import UpdateError  # noqa: E402
from tafel.game import Game  # noqa: E402
from update import health  # noqa: E402
from update.stage import Stager  # noqa: E402

BLOCKS = 512
CHUNK = 172  # file bytes in one UPDATE_CHUNK (tafel.wire.UPDATE_DATA)

with open(sys.argv[2]) as f:
    SPEC = json.load(f)
KEYS = [unhexlify(k) for k in SPEC["keys"]]


class _Image:
    """spec["image"], [[path, sha256 hex], ...]: a firmware image holding those files frozen, as
    the appimage module a Tafel image freezes (update/image.py looks it up by import); its VERSION
    spec["image_version"]."""


if SPEC.get("image"):
    _Image.VERSION = SPEC["image_version"]  # what the image was built as (update/complete.py reads it)
    _Image.FILES = tuple(sorted(p for p, _ in SPEC["image"]))
    _digests = dict(SPEC["image"])
    _Image.DIGESTS = tuple(unhexlify(_digests[p]) for p in _Image.FILES)
    sys.modules["appimage"] = _Image
IMAGE = dict(SPEC.get("image") or ())


def read(path):
    with open(path, "rb") as f:
        return f.read()


def head_of(data):
    length, _ = fmt.unpack_header(data[:fmt.HEADER_SIZE])
    return data[:fmt.HEADER_SIZE + length + fmt.SIGNATURE_SIZE]


def manifest_of(data):
    head = head_of(data)
    length = len(head) - fmt.HEADER_SIZE - fmt.SIGNATURE_SIZE
    return fmt.parse(head[fmt.HEADER_SIZE:fmt.HEADER_SIZE + length], head[12:20], len(head))


SENT = [0]  # bodies put so far (a refusal at the head comes before any)


def transfer(st, data):
    """What the laptop does (host_tools/update/client.py), against a Stager directly."""
    head = head_of(data)
    st.begin(hashlib.sha256(head).digest()[:8], len(head))
    state, have, wanted = st.status()
    while have < len(head):
        have = st.put(0, have, head[have:have + CHUNK])
    state, have, wanted = st.status()
    for i, got in wanted:
        e = st.manifest.files[i]
        while got < e.stored:
            piece = data[e.offset + got:e.offset + min(e.stored, got + CHUNK)]
            if not piece:
                break  # the bundle ends early: finish() says what is missing
            SENT[0] += 1
            got = st.put(i + 1, got, piece)
    return st.finish()


def mount(dev):
    return vfs.VfsLfs2(dev, mtime=False)


class _Store:
    """What update/health.py asks of the store: its disk (mounted: statvfs answers)."""

    def __init__(self, vol):
        self.disk = Disk(vol, "/data")


def proven(vol):
    """The app runs its main loop long enough to confirm itself (update/health.py's rule), then
    through its probation; the rollback it tells on screen, if any."""
    told = health.begin(vol)
    store = _Store(vol)
    now = 0
    for _ in range(3):  # start the phase's clock, then trial -> probation -> none
        health.step(now, store)
        now += health.PROBATION_MS
        health.step(now, store)
    return told


def running(vol):
    """Boot as bootsel does, and the app confirms: (folder, version) of what runs."""
    folder, trial = bootsel.choose(vol)
    proven(vol)
    st = bootsel.read(vol)
    return folder, (st["version"] if st else None)


def stager(vol, version):
    return Stager(vol, KEYS, running_version=version, mpy=None)


def tree(vol, folder):
    """{path: bytes} of every file under folder."""
    out = {}
    disk = Disk(vol, "")
    for name, kind in disk.entries(folder):
        path = folder + "/" + name
        if kind == 0x4000:
            out.update(tree(vol, path))
        else:
            out[path] = disk.read(path)
    return out


def complete(vol, folder, m):
    """True if folder holds exactly the manifest's files, each with its size and SHA-256 (with
    an image: those the image does not hold with the same digest)."""
    folder = folder.lstrip("/")
    files = tree(vol, folder)
    wanted = [e for e in m.files if IMAGE.get(e.path) != hexlify(e.sha256).decode()]
    if len(files) != len(wanted):
        return False
    for e in wanted:
        got = files.get(folder + "/" + e.path)
        if got is None or len(got) != e.size or hashlib.sha256(got).digest() != e.sha256:
            return False
    return True


class Clock:
    def time(self):
        return 0


def play_games(vol):
    store = Store(Disk(vol, "/data"))
    store.boot()
    for n in range(2):
        game_id = store.next_game_id()
        game = Game(["Anna", "Ben", "Cleo"], "standard", 5000, None, 0, game_id)
        store.new_game(game_id, game.create_record())
        for _ in range(3 + n):
            rec = game.round_record({"Anna": 0, "Ben": 36, "Cleo": 53}, "Anna")
            store.append(game_id, rec)
            game.apply(rec)
    store.save_roster(["Anna", "Ben", "Cleo"])
    return tree(vol, "data")


def setup():
    dev = FlashDev(blocks=BLOCKS)
    vfs.VfsLfs2.mkfs(dev)
    vol = mount(dev)
    transfer(stager(vol, "0.0.1"), V1)
    running(vol)
    games = play_games(vol)
    return dev, vol, games


V1 = read(SPEC["v1"])
V2 = read(SPEC["v2"])
M1 = manifest_of(V1)
M2 = manifest_of(V2)


def case_update():
    dev, vol, games = setup()
    before = dev.ops
    assert complete(vol, "app/a", M1)
    version = transfer(stager(vol, M1.version), V2)
    ops = dev.ops - before
    folder, now = running(vol)
    return {"version": version, "folder": folder, "complete": complete(vol, folder, M2),
            "slot": sorted(p[len(folder):] for p in tree(vol, folder.lstrip("/"))),  # paths in the slot
            "games": tree(vol, "data") == games, "ops": ops,
            "stage_left": sorted(tree(vol, "app/stage")), "pointer": bootsel.read(vol)}


def check_cut(image, games):
    # Boot the image as it was left, check, resume the update to its end, check again.
    dev = FlashDev(blocks=BLOCKS, image=image)
    vol = mount(dev)
    folder, version = running(vol)
    m = M2 if version == M2.version else M1
    if version not in (M1.version, M2.version) or not complete(vol, folder, m):
        return "boot %s %s incomplete" % (folder, version)
    if tree(vol, "data") != games:
        return "games changed"
    store = Store(Disk(vol, "/data"))
    store.boot()
    if len(store.history()) != 2:
        return "games lost"
    if version == M1.version:
        transfer(stager(vol, M1.version), V2)
        folder, version = running(vol)
    if version != M2.version or not complete(vol, folder, M2):
        return "resumed to %s %s" % (folder, version)
    return None


def case_sweep():
    dev, vol, games = setup()
    base = [None if b is None else bytearray(b) for b in dev.image]
    dev.log = []
    transfer(stager(vol, M1.version), V2)
    running(vol)
    log = dev.log
    dev.log = None
    wl = WriteLog(base, log)
    step = SPEC.get("step", 1)
    bad = []
    points = 0
    image = None
    for op in range(0, len(log), step):
        for tear in (False, True):
            image = wl.image_before(op, tear, image if tear else None)
            problem = check_cut([None if b is None else bytearray(b) for b in image], games)
            points += 1
            if problem:
                bad.append((op, tear, problem))
    # real cuts, not rebuilt from the log: a few, to show the log agrees
    real = 0
    for op in range(0, len(log), max(1, len(log) // 8)):
        dev2, vol2, games2 = setup()
        dev2.cut_at = dev2.ops + op
        try:
            transfer(stager(vol2, M1.version), V2)
            running(vol2)
        except PowerCut:
            pass
        real += 1
        problem = check_cut(dev2.image, games2)
        if SPEC.get("debug"):
            print("real", op, problem)
        if problem:
            bad.append((op, "real", problem))
    return {"ops": len(log), "points": points, "real": real, "bad": bad[:10], "nbad": len(bad)}


def case_rollback():
    dev, vol, games = setup()
    transfer(stager(vol, M1.version), V2)
    seen = []
    for _ in range(bootsel.TRIES + 2):
        folder, trial = bootsel.choose(vol)
        seen.append([folder, trial])
        if folder == "/app/a":
            break
        # the new version raises on import or hangs before startup confirms: no confirm(),
        # the watchdog resets the chip (the next boot)
    note = proven(vol)
    after = bootsel.read(vol)
    folder, _ = bootsel.choose(vol)
    return {"boots": seen, "note": note, "pointer": after, "then": folder,
            "complete": complete(vol, "app/a", M1), "games": tree(vol, "data") == games}


def case_tamper():
    dev, vol, games = setup()
    out = {}
    for path, _ in SPEC["bad"]:
        SENT[0] = 0
        try:
            transfer(stager(vol, M1.version), read(path))
            out[path] = "accepted"
        except UpdateError as err:
            out[path] = err.key
            out["detail " + path] = list(err.detail) if isinstance(err.detail, tuple) else err.detail
        out["bodies " + path] = SENT[0]
        folder, version = running(vol)
        if folder != "/app/a" or version != M1.version or not complete(vol, folder, M1):
            out[path] += " (running version disturbed)"
        if tree(vol, "data") != games:
            out[path] += " (games changed)"
    return out


def case_full():
    dev, vol, games = setup()
    disk = Disk(vol, "")
    big = bytes(4096 * 16)
    filler = bytes(4096)
    n = 0
    while True:  # fill the flash to just above what the games keep
        free = disk.space()[0]
        if free <= 24 + 16 + 4:
            break
        if free > 24 + 16 + 4 + 40:
            if n == 0:
                vol.mkdir("/fill")
            with vol.open("/fill/%d" % n, "wb") as f:
                f.write(big)
            n += 1
            continue
        if n == 0:
            vol.mkdir("/fill")
        with vol.open("/fill/%d" % n, "wb") as f:
            f.write(filler)
        n += 1
    games = tree(vol, "data")
    try:
        transfer(stager(vol, M1.version), V2)
        key = "accepted"
    except UpdateError as err:
        key = err.key
    folder, version = running(vol)
    return {"key": key, "folder": folder, "version": version, "complete": complete(vol, folder, M1),
            "games": tree(vol, "data") == games, "stage_left": sorted(tree(vol, "app/stage"))}


print(json.dumps(globals()["case_" + SPEC["case"]]()))
