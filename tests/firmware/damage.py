# The flash-damage campaign's evening and damage (issue 13); damage_trial.py runs the trials.
#
# An Evening is played once on LittleFS over the emulated 2 MB flash and
# kept as an image plus a model of what was acknowledged
# (damage_judge.GameModel, by label). damaged() gives a copy with one block
# the file system uses damaged: erased, zeroed, or one bit flipped at a
# seeded position inside the block's written bytes (flips()); damaged_many()
# several at once, counterparts() the blocks of /data and /twin that hold the
# same files (damage in both copies).
# MicroPython only (vfs.VfsLfs2); used by tests/firmware/test_flash_damage.py
# and bench/flash_damage.py.
import random
import time

import damage_judge as judge
from sim.flashdev import BLOCK_SIZE, BLOCKS, FlashDev, copy_image
from store.errors import StoreError
from store.fsys import Disk
from store.mount import mount
from store.store import Store
from tafel.game import Game

_ERASED = b"\xff" * BLOCK_SIZE
NEW_SEATS = ("Nora", "Otto", "Pia")  # the game started after the damage
NEW_CREATED = 9000


def hands_for(players, r):
    winner = players[r % len(players)]
    hands = {}
    for i in range(len(players)):
        hands[players[i]] = 0 if players[i] == winner else 2 + (r * 7 + i * 13) % 45
    return hands, winner


class _Play:
    # Plays games through the store's API as firmware/session.py does:
    # the record is stored (acknowledged), then applied and put in the model.
    def __init__(self, store):
        self.store = store
        self.games = []  # GameModel, in the order played

    def start(self, label, players, created):
        game_id = self.store.next_game_id()
        game = Game(players, "standard", 5000, None, created, game_id)
        rec = game.create_record()
        self.store.new_game(game_id, rec)
        gm = judge.GameModel(label, players, created, game_id, [rec])
        gm.game = game
        self.games.append(gm)
        return gm

    def save(self, gm, rec):
        self.store.append(gm.game_id, rec)
        gm.records.append(rec)
        gm.game.apply(rec)

    def rounds(self, gm, n):
        for _ in range(n):
            self.save(gm, gm.game.round_record(*hands_for(gm.players, len(gm.game.rounds))))

    def finish(self, gm, when):
        self.save(gm, gm.game.finish_record(when))
        self.store.game_finished(gm.game_id, gm.game)


class Evening:
    """The issue's evening, played once: two finished games (6 seats with an
    edit and an undo, 4 seats), one paused after 8 rounds (put away when the
    next one starts), one running with 25 rounds; roster and settings saved.
    `image` is the flash afterwards, `games` the acknowledged GameModels."""

    def __init__(self):
        dev = FlashDev()
        vol, _ = mounted(dev)
        store = Store(Disk(vol, "/data"))
        store.boot()
        play = _Play(store)
        store.save_roster(["Anna", "Ben", "Cleo", "Dana", "Emil", "Fritz", "Gert"])
        a = play.start("A", ("Anna", "Ben", "Cleo", "Dana", "Emil", "Fritz"), 1000)
        play.rounds(a, 16)
        play.save(a, a.game.edit_record(4, *hands_for(a.players, 104)))
        play.save(a, a.game.undo_record())
        play.finish(a, 1900)
        b = play.start("B", ("Gert", "Hanna", "Ida", "Jan"), 2000)
        play.rounds(b, 14)
        play.finish(b, 2900)
        p = play.start("P", ("Anna", "Ben", "Cleo", "Dana"), 3000)
        play.rounds(p, 8)
        r = play.start("R", ("Emil", "Fritz", "Gert", "Hanna", "Ida"), 4000)
        play.rounds(r, 25)
        store.save_settings({"lang": "en", "target": 500, "sleep": 90})
        for gm in play.games:
            gm.done()
        self.games = play.games
        self.image = copy_image(dev.image)
        self.blocks = used_blocks(self.image)
        self.names = _names(vol)
        self._scratch = None
        self._described = {}

    def damaged(self, block, kind, pos=0, bit=0):
        """A copy of the image with one block damaged (reusing one buffer set)."""
        return self.damaged_many([(block, kind, pos, bit)])

    def damaged_many(self, faults):
        """A copy of the image with every (block, kind, pos, bit) of `faults` done to it."""
        self._scratch = img = copy_image(self.image, self._scratch)
        for block, kind, pos, bit in faults:
            if kind == "erase":
                img[block] = None
            elif kind == "zero":
                img[block] = bytearray(BLOCK_SIZE)
            elif kind == "flip":
                img[block][pos] ^= 1 << bit
            elif kind != "none":  # "none": the undamaged evening (a check of the harness)
                raise ValueError(kind)
        return img

    def counterparts(self):
        """[(block, block)]: a block whose loss changes files of /data and one whose loss
        changes the same files of /twin, the copy beside it (told by erasing each block and
        reading everything back): where damage in both copies hurts most."""
        sides = {}
        for block in self.blocks:
            changed = self._changed_by_erasing(block)
            tops = set(p.split("/")[1] for p in changed)
            if len(tops) != 1 or list(tops)[0] not in ("data", "twin"):
                continue  # no effect (an older copy of something), or not one copy's alone
            top = list(tops)[0]
            key = tuple(sorted(p[len(top) + 1:] for p in changed))
            sides.setdefault(key, {}).setdefault(top, []).append(block)
        out = []
        for key in sorted(sides):
            both = sides[key]
            for a in both.get("data", ()):
                for b in both.get("twin", ()):
                    out.append((a, b))
        return out

    def _changed_by_erasing(self, block):
        try:
            vol = mounted(FlashDev(image=self.damaged(block, "erase")))[0]
            now = dict(_names(vol))
        except (OSError, StoreError):
            return ["/unmountable"]
        was = dict(self.names)
        return [p for p in set(was) | set(now) if was.get(p) != now.get(p)]

    def boot_ms(self, times=3):
        """The fastest of a few boot checks of the undamaged evening, in ms."""
        best = None
        for _ in range(times):
            dev = FlashDev(image=copy_image(self.image))
            store = Store(Disk(mounted(dev)[0], "/data"))
            t = time.ticks_ms()
            store.boot()
            t = time.ticks_diff(time.ticks_ms(), t)
            best = t if best is None else min(best, t)
        return best

    def describe(self, block):
        """What a block holds, told from the undamaged files: 'data P' if
        erasing it changes file P, 'old data P' for a stale copy of P's
        bytes, else 'meta' and the names its directory entries mention."""
        if block in self._described:
            return self._described[block]
        cells = self.image[block]
        out = None
        for path, data in self.names:
            if len(data) > 64 and cells[:32] == data[:32]:
                try:
                    vol = mounted(FlashDev(image=self.damaged(block, "erase")))[0]
                    same = _read(vol, path) == data
                except (OSError, StoreError):
                    same = False
                out = ("old data " if same else "data ") + path
                if not same:
                    break
        if out is None:
            seen = [p.rsplit("/", 1)[-1] for p, _ in self.names if p.rsplit("/", 1)[-1].encode() in cells]
            if b"littlefs" in cells:
                seen.insert(0, "superblock")
            out = "meta " + ",".join(seen[:4]) if seen else "meta"
        self._described[block] = out
        return out


def mounted(dev):
    got = mount(dev, mtime=False)  # no timestamps: byte-identical reruns
    return got if isinstance(got, tuple) else (got, False)


def _names(vol, folder=""):
    # (path, bytes) of every file and folder on the volume (folders: b"").
    out = []
    for e in vol.ilistdir(folder or "/"):
        path = folder + "/" + e[0]
        if e[1] == 0x4000:
            out.append((path, b""))
            out += _names(vol, path)
        else:
            out.append((path, _read(vol, path)))
    return out


def _read(vol, path):
    f = vol.open(path, "rb")
    try:
        return f.read()
    finally:
        f.close()


def used_blocks(image):
    """The blocks the file system has written (every block not fully erased)."""
    return [b for b in range(len(image)) if image[b] is not None and image[b] != _ERASED]


def written(cells):
    """How many bytes of a block are written: up to its last byte that is not 0xFF."""
    return len(bytes(cells).rstrip(b"\xff"))


def flips(image, block, count, seed):
    """`count` seeded (byte, bit) positions inside the block's written bytes;
    the same seed and block always give the same list (and the first k of a
    longer list are the k of a shorter one)."""
    random.seed(seed * 1000 + block)
    n = written(image[block])
    return [(random.randrange(n), random.randrange(8)) for _ in range(count)]


def save_image(image, path):
    """The raw flash (BLOCKS x BLOCK_SIZE bytes, erased blocks as 0xFF), as a
    board's partition would be read out, for `tafel rescue`."""
    f = open(path, "wb")
    try:
        for b in range(BLOCKS):
            f.write(_ERASED if image[b] is None else image[b])
    finally:
        f.close()
