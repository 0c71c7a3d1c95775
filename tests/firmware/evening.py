# The scripted evening and the power-cut machinery shared by the storage
# tests and bench/storage_wear.py (MicroPython only: it needs vfs.VfsLfs2).
#
# The evening (issue 3): create a game, 30 rounds, an edit, an undo, finish
# it, start a second game (and play a round), change the roster, change the
# settings. Each step does what firmware/session.py does: build the core's
# record, store.append() it (the acknowledgement), apply it. A model keeps
# what was acknowledged, so a check after a cut compares the flash with the
# model, not with the code under test.

from sim.flashdev import FlashDev, PowerCut, WriteLog, copy_image
from store.fsys import Disk
from store.gamelog import GameLog
from store.mount import mount
from store.store import Store
from tafel.game import Game

BLOCKS = 512  # the real size: 2 MB (images are sparse, so cheap)
SEATS_A = ("Anna", "Ben", "Cleo", "Dana", "Emil", "Fritz")
SEATS_B = ("Anna", "Ben", "Cleo")


def boot(image=None, blocks=BLOCKS, dev=None):
    """(dev, store, notes): mount the image (a new chip over the same bytes,
    as after power-up) and run the store's boot check."""
    if dev is None:
        dev = FlashDev(blocks=blocks, image=image)
    vol, _ = mount(dev, mtime=False)  # no timestamps: byte-identical reruns
    store = Store(Disk(vol, "/data"))
    notes = store.boot()
    return dev, store, notes


class Context:
    """What the UI would hold: game ids by label, the Game objects, the model."""

    def __init__(self, store, model=None):
        self.store = store
        self.games = {}  # label -> Game (loaded from flash when needed)
        self.model = model or Model()

    def game(self, label):
        if label not in self.games:
            self.games[label] = self.store.load_game(self.model.ids[label])
        return self.games[label]

    def save(self, label, record):
        game = self.game(label)
        game_id = self.model.ids[label]
        self.store.append(game_id, record)  # durable from here on
        self.model.records[game_id].append(record)
        game.apply(record)
        if game.finished:
            self.store.game_finished(game_id, game)


class Model:
    """What was acknowledged: records per game id, roster, settings."""

    def __init__(self):
        self.ids = {}
        self.records = {}
        self.roster = []
        self.settings = {}

    def copy(self):
        m = Model()
        m.ids = dict(self.ids)
        m.records = {k: list(v) for k, v in self.records.items()}
        m.roster = list(self.roster)
        m.settings = dict(self.settings)
        return m

    def same(self, other):
        return (self.records == other.records and self.roster == other.roster
                and self.settings == other.settings)


def _hands(seats, r):
    winner = seats[r % len(seats)]
    hands = {}
    for i in range(len(seats)):
        hands[seats[i]] = 0 if seats[i] == winner else 3 + (r * 7 + i * 11) % 40
    return hands, winner


def _create(label, seats, when, target=5000):
    def step(ctx):
        store = ctx.store
        game_id = store.next_game_id()
        game = Game(seats, "standard", target, None, when, game_id)
        rec = game.create_record()
        store.new_game(game_id, rec)
        ctx.model.ids[label] = game_id
        ctx.model.records[game_id] = [rec]
        ctx.games[label] = game
    return step


def _round(label, r):
    def step(ctx):
        hands, winner = _hands(ctx.game(label).players, r)
        ctx.save(label, ctx.game(label).round_record(hands, winner))
    return step


def _edit(label, index):
    def step(ctx):
        hands, winner = _hands(ctx.game(label).players, index + 100)
        ctx.save(label, ctx.game(label).edit_record(index, hands, winner))
    return step


def _undo(label):
    def step(ctx):
        ctx.save(label, ctx.game(label).undo_record())
    return step


def _finish(label, when):
    def step(ctx):
        ctx.save(label, ctx.game(label).finish_record(when))
    return step


def _roster(names):
    def step(ctx):
        ctx.store.save_roster(names)
        ctx.model.roster = list(names)
    return step


def _settings(values):
    def step(ctx):
        ctx.store.save_settings(values)
        ctx.model.settings = dict(values)
    return step


def steps(rounds=30, target=5000):
    """The evening as [(name, step)]; a step is called with a Context."""
    out = [("create A", _create("A", SEATS_A, 1000, target))]
    for r in range(rounds):
        out.append(("round A%d" % (r + 1), _round("A", r)))
    out.append(("edit A5", _edit("A", 4)))
    out.append(("undo A", _undo("A")))
    out.append(("finish A", _finish("A", 5000)))
    out.append(("create B", _create("B", SEATS_B, 6000)))
    out.append(("round B1", _round("B", 0)))
    out.append(("roster", _roster(["Anna", "Ben", "Cleo", "Dana", "Emil", "Fritz", "Gert"])))
    out.append(("settings", _settings({"lang": "en", "target": 500, "sleep": 90})))
    return out


def observe(store):
    """A Model read back from flash, checking on the way that every game loads
    cleanly and that its history entry agrees with its replay."""
    m = Model()
    m.roster = list(store.roster)
    m.settings = dict(store.settings)
    for game_id in store.history():
        log = GameLog(store.disk, game_id)
        m.records[game_id] = [payload for _, payload in log.records()]
        assert not log.problems, (game_id, log.problems)
        game, problems = store.read_game(game_id)
        assert not problems, (game_id, problems)
        e = store.summary(game_id)
        assert e.rounds == len(game.rounds), (game_id, e.rounds, len(game.rounds))
        assert e.finished == game.finished and tuple(e.players) == tuple(game.players)
        assert e.winners() == game.winners()
        assert e.live == (store.running_game() == game_id)
    return m


def record(evening=None, blocks=BLOCKS):
    """Plays the evening once on a fresh chip with the write log on.
    Returns (base image, log, snapshots, ends): ends[k] is the log index
    where step k starts (ends[-1] the log's length)."""
    evening = evening or steps()
    dev, store, _ = boot(blocks=blocks)
    base = copy_image(dev.image)
    dev.log = []
    ctx = Context(store)
    snaps = [ctx.model.copy()]
    ends = [0]
    for _, step in evening:
        step(ctx)
        snaps.append(ctx.model.copy())
        ends.append(len(dev.log))
    return base, dev.log, snaps, ends


def step_at(ends, op):
    """The index of the step during which flash operation `op` ran."""
    for k in range(1, len(ends)):
        if op < ends[k]:
            return k - 1
    return len(ends) - 1


def check_after_cut(image, snaps, k, evening, blocks=BLOCKS, next_cut=None):
    """After a cut during step k: boot, compare with the model (step k either
    wholly there or wholly absent), then run the next action and compare
    again. next_cut cuts power once more during that boot (a cut during
    recovery) and boots once more. Returns "before"/"after" (what k left)."""
    dev = FlashDev(blocks=blocks, image=image)
    if next_cut is not None:
        dev.cut_at = dev.ops + next_cut
        try:
            boot(dev=dev)
        except PowerCut:
            pass
        dev = FlashDev(blocks=blocks, image=image)
    dev, store, _ = boot(dev=dev)
    got = observe(store)
    if got.same(snaps[k]):
        state, redo = "before", k
    elif got.same(snaps[k + 1]):
        state, redo = "after", k + 1
    else:
        raise AssertionError("step %d (%s): flash matches neither side: %s" % (k, evening[k][0], _diff(got, snaps[k], snaps[k + 1])))
    if redo < len(evening):
        ctx = Context(store, snaps[redo].copy())
        evening[redo][1](ctx)
        dev2, store2, _ = boot(image=dev.image, blocks=blocks)
        assert observe(store2).same(snaps[redo + 1]), "next action (%s) not stored" % evening[redo][0]
    assert dev.overwrites == 0
    return state


def _diff(got, a, b):
    out = []
    for game_id in sorted(set(list(got.records) + list(a.records) + list(b.records))):
        n = [len(x.records.get(game_id, ())) for x in (got, a, b)]
        out.append("game %d records got/before/after %s" % (game_id, n))
    out.append("roster %r settings %r" % (got.roster, got.settings))
    return "; ".join(out)


def sweep(points, tear=False, blocks=BLOCKS, evening=None, recorded=None):
    """Cuts the recorded evening before each op index in `points` (ascending)
    and checks each. Returns (count, before, after)."""
    evening = evening or steps()
    base, log, snaps, ends = recorded or record(evening, blocks)
    wl = WriteLog(base, log)
    image = None
    before = after = 0
    for op in points:
        image = wl.image_before(op, tear, image)
        k = step_at(ends, op)
        if check_after_cut(image, snaps, k, evening, blocks) == "before":
            before += 1
        else:
            after += 1
    return len(points), before, after
