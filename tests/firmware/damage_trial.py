# One flash-damage trial and the campaign over every block (issue 13; the evening: damage.py).
#
# A trial mounts a fresh chip over a damaged copy of the evening's image,
# boots the store and judges every game (damage_judge.py), then plays on:
# one more round for the running game and a new game of two rounds; it
# reboots and judges again, so a reused game id (which destroys acknowledged
# rounds) or a round that does not survive a remount is counted too.
# Outcomes: "unmountable" (mount raised StoreError or OSError: `tafel
# rescue` must read those), "crashed" (anything raised after the mount), or
# "mounted" with a verdict per game.
import gc

import damage_judge as judge
from damage import NEW_CREATED, NEW_SEATS, flips, hands_for, mounted
from sim.flashdev import FlashDev
from store.errors import StoreError
from store.fsys import Disk
from store.store import Store
from tafel.game import Game


class Trial:
    """One damaged image: outcome 'mounted', 'unmountable' or 'crashed';
    games [(label, verdict, text)] when it mounted."""

    def __init__(self, block, kind, where):
        self.block = block
        self.kind = kind
        self.where = where  # "byte 812 bit 3", or "" for a whole block
        self.spot = None  # (byte, bit) of a flip
        self.outcome = "mounted"
        self.games = []
        self.error = ""
        self.image = None  # kept for an unmountable one (--save-dir)

    def name(self):
        """A file name for the damaged image: 41-erase, 41-zero, 41-flip496.4 (byte 496, bit 4)."""
        return "%d-%s" % (self.block, self.kind) + ("%d.%d" % self.spot if self.spot else "")


def run_trial(ev, block, kind, pos=0, bit=0):
    where = "byte %d bit %d" % (pos, bit) if kind == "flip" else ""
    trial = Trial(block, kind, where)
    if kind == "flip":
        trial.spot = (pos, bit)
    return _run(ev, trial, ev.damaged(block, kind, pos, bit))


def run_faults(ev, kind, faults):
    """One trial with several faults at once ((block, kind, pos, bit) each); `kind` names it
    in the table ("flip4": four flips, "zero2": two blocks zeroed)."""
    where = ", ".join("%d" % b + (" byte %d bit %d" % (p, i) if k == "flip" else " " + k) for b, k, p, i in faults)
    return _run(ev, Trial(faults[0][0], kind, "blocks " + where), ev.damaged_many(faults))


def _run(ev, trial, img):
    try:
        vol = mounted(FlashDev(image=img))[0]
    except (StoreError, OSError) as err:
        trial.outcome = "unmountable"
        trial.error = repr(err)
        trial.image = img
        return trial
    except Exception as err:
        return _crashed(trial, "mount", err)
    stage = "boot"
    try:
        store = Store(Disk(vol, "/data"))
        booted = store.boot()
        stage = "survey"
        found = judge.survey(store)  # every game opened, as a user would in the history
        notes = judge.notes_of(store, booted)  # the boot's notes and what opening the games told
        verdicts = {}
        for gm in ev.games:
            verdicts[gm.label] = judge.judge(gm, found.get(gm.key()), notes, None, found.unreadable)
        stage = "playing on"
        expect = _play_on(store, ev.games, found)
        stage = "reboot"
        store = Store(Disk(mounted(FlashDev(image=img))[0], "/data"))
        booted = store.boot()
        stage = "survey after reboot"
        found = judge.survey(store)
        notes = judge.notes_of(store, booted)
    except Exception as err:
        return _crashed(trial, stage, err)
    for gm in ev.games + [expect["N"][0]]:
        first = verdicts.get(gm.label)  # None for the new game
        got = found.get(gm.key())
        later = None
        if gm.label in expect and expect[gm.label][1] is not None:  # the running game, played on
            later = judge.judge(gm, got, notes, expect[gm.label][1], found.unreadable)
        elif first is None or first[0] in judge.INTACT:  # the new game; still whole after it?
            later = judge.judge(gm, got, notes, None, found.unreadable)
        if later is not None and first is not None and later[0] not in judge.INTACT:
            later = (later[0], "after playing on and a reboot: " + later[1])
        verdict = judge.worse(first, later)
        trial.games.append((gm.label, verdict[0], verdict[1]))
    return trial


def _play_on(store, games, found):
    # One more round for the running game (if it is there, as the store has
    # it) and a new game with two rounds. Returns label -> (GameModel, the
    # signature expected after a reboot, None: the model's last).
    expect = {}
    running = [gm for gm in games if gm.label == "R"][0]
    have = judge.best(running, found.get(running.key()))
    if have is not None and not have[1].finished:
        game_id, game = have
        rec = game.round_record(*hands_for(game.players, len(game.rounds)))
        store.append(game_id, rec)
        game.apply(rec)
        expect["R"] = (running, judge.signature(game))
    game_id = store.next_game_id()
    new = Game(NEW_SEATS, "standard", 5000, None, NEW_CREATED, game_id)
    gm = judge.GameModel("N", NEW_SEATS, NEW_CREATED, game_id, [new.create_record()])
    store.new_game(game_id, gm.records[0])
    for r in range(2):
        rec = new.round_record(*hands_for(NEW_SEATS, r))
        store.append(game_id, rec)
        new.apply(rec)
        gm.records.append(rec)
    gm.done()
    expect["N"] = (gm, None)  # its model is just what was acknowledged
    return expect


def _crashed(trial, stage, err):
    trial.outcome = "crashed"
    trial.error = "%s: %s" % (stage, repr(err))
    return trial


MULTI = ("flip2", "flip4", "flip8", "zero2")


def multi_campaign(ev, seed, kinds=MULTI, pairs=None, each=None):
    """Damage in both copies at once: for every pair of counterpart blocks (ev.counterparts(), or
    `pairs`), "flipN" flips N bits, half in each block at seeded positions, "zero2" zeroes both.
    Returns a judge.Tally, as campaign() does."""
    tally = judge.Tally()
    for a, b in ev.counterparts() if pairs is None else pairs:
        for kind in kinds:
            if kind == "zero2":
                faults = [(a, "zero", 0, 0), (b, "zero", 0, 0)]
            else:
                half = int(kind[4:]) // 2
                faults = [(blk, "flip", pos, bit) for blk in (a, b) for pos, bit in flips(ev.image, blk, half, seed)]
            trial = run_faults(ev, kind, faults)
            if each is not None:
                each(trial)
            trial.image = None
            tally.add(trial)
            gc.collect()
    return tally


def campaign(ev, flip_count, seed, kinds=("flip", "erase"), each=None):
    """Every used block x every damage kind in `kinds` ("flip": flip_count
    single-bit trials per block). Calls each(trial) after every trial (the
    trial's image is only valid during that call); returns a judge.Tally."""
    tally = judge.Tally()
    for block in ev.blocks:
        todo = []
        if "flip" in kinds:
            todo += [("flip", pos, bit) for pos, bit in flips(ev.image, block, flip_count, seed)]
        todo += [(k, 0, 0) for k in ("erase", "zero") if k in kinds]
        for kind, pos, bit in todo:
            trial = run_trial(ev, block, kind, pos, bit)
            if each is not None:
                each(trial)
            trial.image = None
            tally.add(trial)
            gc.collect()  # each trial leaves ~100 blocks' garbage: collect before it splits the heap
    return tally
