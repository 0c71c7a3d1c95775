# The storage the device talks to: games, history, settings, roster, space.
#
# Layout under the data folder (default /data):
#   live/<id>.<nnn>   journal segments of the game being played (gamelog.py)
#   games/<id>.tj     closed games, one journal each
#   keep/             damaged bytes set aside for export; never deleted here
#   index             history summaries (index.py)
#   settings, roster  small JSON values (keyval.py)
#   mark              the game and record the screen last confirmed (watermark.py)
#   club, hubmark     a club pairing and the hub's cursor, only while paired (pairing.py;
#                     settings["club"] says there is one)
# and the same games again in the twin (/twin: live/, games/, next, mark).
#
# A save (firmware/session.py does this): rec = game.round_record(...);
# store.append(game_id, rec) returns only once the record is committed on
# flash; then the caller applies it and the screen may say "saved". When a
# game is over the caller hands it to game_finished(), which puts it away.
# Times are always handed in by the caller: nothing here reads a clock.
from tafel import journal
from unload import forget

from . import index as ix
from . import keyval
from .errors import StoreError
from .gamelog import GameLog, Mark, replay
from .space import Space

NEXT_ID = "next"  # in the twin: the next free game id, a second memory beside the index header


class Store:
    def __init__(self, disk, twin=None):
        self.disk = disk
        self.twin = twin if twin is not None else disk.sibling("twin")
        self.disks = (disk, self.twin)
        self.parent = disk.parent()  # the folder holding both (hardened once too)
        self.report = []  # the notes of the last boot check (bootcheck.py)
        self.index = ix.Index(disk)
        self.live = None  # GameLog of the game being played
        self.unreadable = {}  # game id -> why it cannot be replayed
        self.settings = {}
        self.roster = []
        self._top = None  # the highest game id ever used, once known
        self._booted = None  # (id, Game) replayed by boot, handed out once
        self._space = None  # the last space() answer while still true
        self.mark = Mark(self.disks)  # what the screen last confirmed (gamelog.py; checked at boot: watermark.py)

    # ---- boot ----------------------------------------------------------------

    def boot(self, deep=False):
        """Checks everything after power-up; returns notes for the UI (see
        bootcheck.py). deep=True also compares the index with every journal
        in games/ (slow with many games; for idle time or before an export)."""
        from . import bootcheck

        try:
            return bootcheck.run(self, deep)
        finally:
            forget(("store.bootcheck", "store.mend", "store.watermark"))  # once a boot: their code need not hold heap while the table plays

    def log(self, game_id):
        """The GameLog of a game, over both copies."""
        return GameLog(self.disk, game_id, self.twin)

    def _put_away_soft(self, log, game):
        try:
            self._put_away(log, game)
        except (OSError, MemoryError):
            pass  # stays in live/, whole: put away when the next game starts, or at the next boot

    def _put_away(self, log, game):
        # Compact copy to games/, then the history entry, then the segments
        # go: until they are gone the next boot redoes all of it (see
        # bootcheck.py), so a cut anywhere in here loses nothing.
        if not log.live():
            return
        size = log.write_closed()
        i = self.index.find(log.game_id)  # damage found at boot stays on its entry (watermark.py)
        flags = self.index.flags[i] & ix.DAMAGED if i >= 0 else 0
        self.index.write({log.game_id: ix.entry_for(game, log.game_id, size, flags)}, self.next_game_id())
        log.remove_live()
        self._space = None
        if self.live is log:
            self.live = None

    def find_top(self, *found, skip=()):
        """Learns the highest id ever used from the ids found on flash (the
        boot check lists every folder; any number of collections, those in
        `skip` left out), the index and the twin's counter."""
        top = self.index.next_id - 1
        for game_id in self.index.ids:
            top = max(top, game_id)
        for ids in found:  # gone through where they are: no list of them all at boot
            for game_id in ids:
                if game_id not in skip:
                    top = max(top, game_id)
        data = self.twin.read(NEXT_ID)
        got = journal.read_frame(data) if data else None
        if got is not None and got[1].isdigit():
            top = max(top, int(got[1]) - 1)
        if self.mark.game_id is not None:  # confirmed on screen: born, whatever the folders say now
            top = max(top, self.mark.game_id)
        self._top = top

    def next_game_id(self):
        """The id for the next new game. Ids are never reused (the host keeps
        history by device and game id, and a journal must never take another
        game's records): the boot check finds the highest id anywhere on
        flash, and both the index header and the twin remember the next one,
        even after the newest game was deleted."""
        if self._top is None:
            self.find_top(())
        return max(self._top, self.index.next_id - 1) + 1

    # ---- playing -----------------------------------------------------------------

    def running_game(self):
        """The id of the unfinished game being played, or None."""
        return None if self.live is None else self.live.game_id

    def new_game(self, game_id, record):
        """Stores a new game's create record (id from next_game_id()). The game
        being played is put away first. Refuses with StoreError("flash_full",
        kilobytes free) when space is short; StoreError("save_failed", errno)
        if the flash refused (nothing stored)."""
        if game_id < self.next_game_id():
            raise ValueError("game id %d is taken; ask next_game_id()" % game_id)
        space = self.space()
        if not space.can_start_game():
            raise StoreError("flash_full", space.free_kb)
        self._leave_running()
        log = self.log(game_id)
        if log.exists():  # never: next_game_id() saw every file; but never mix two games either
            raise ValueError("game id %d has files on flash" % game_id)
        self._top = max(game_id, self._top or 0)
        self._append(log, record)
        self.live = log
        try:  # after the create record: until this lands, its files say the id is taken
            self.twin.write_new(NEXT_ID, journal.frame(0, b"%d" % (game_id + 1)))
        except OSError:
            pass  # the game is stored; the listing at the next boot knows its id

    def append(self, game_id, record):
        """Stores one record durably; returns when it is committed on flash.
        A game other than the running one becomes the running one (the other
        is put away). Raises StoreError("save_failed", errno) if the flash
        refused; then nothing was stored."""
        if self.live is None or self.live.game_id != game_id:
            self._leave_running()
            log = self.log(game_id)
            from .mend import mend

            try:
                mend(log)  # copies made alike; damage found is kept in keep/, never written over
            except OSError as err:
                raise StoreError("save_failed", err.errno)
            if log.next_seq == 0 or log._create is None:
                raise StoreError("no_game", game_id)  # no create record of its own: nothing to add to
            self.live = log
        self._append(self.live, record)

    def _append(self, log, record):
        segment = log.segment
        try:
            log.append(record)
        except OSError as err:
            self._space = None
            raise StoreError("save_failed", err.errno)
        if log.segment != segment:
            self._space = None  # a new segment: a block more in use
        self.mark.write(log.game_id, log.next_seq - 1)  # in both copies: now the screen may say so

    def game_finished(self, game_id, game):
        """Puts a game that is over away (compact copy, history entry). If the
        flash refuses, it stays in live/ and the next boot finishes the job;
        every record is already safe either way."""
        if self.live is not None and self.live.game_id == game_id:
            self._put_away_soft(self.live, game)

    def _leave_running(self):
        # Puts the running game away before another one runs. If the flash
        # or the heap refuses, it simply stays in live/ too; the next boot
        # puts away every live game but the newest.
        if self.live is not None:
            log = self.live
            try:
                game, _ = replay(self.log(log.game_id))
            except MemoryError:
                game = None  # it stays in live/: the boot puts away every live game but the newest
            if game is not None:
                self._put_away_soft(log, game)
            self.live = None

    # ---- reading -----------------------------------------------------------------

    def load_game(self, game_id):
        """The game replayed from flash (every good record). Raises
        StoreError("no_game", id) if there is no readable game."""
        if self._booted is not None and self._booted[0] == game_id:
            game = self._booted[1]
            self._booted = None
            return game
        return self.read_game(game_id)[0]

    def read_game(self, game_id):
        """(tafel.Game, problems): problems lists (file, text) of damage; the
        game holds every record before it. Raises StoreError("no_game", id)
        when there is no such game and StoreError("game_unreadable", (id, text))
        when not even its first record can be read (its bytes stay as they
        are). Damage found here that no note told yet is told (_found_damage)."""
        log = self.log(game_id)
        game, problem = replay(log)
        if game is None:
            if not log.exists():
                raise StoreError("no_game", game_id)
            why = problem or log.problems[0][1]
            self._found_damage("game_unreadable", game_id, why)
            raise StoreError("game_unreadable", (game_id, why))
        problems = list(log.problems)
        if problem:
            problems.append(("", problem))
        if problems:
            self._found_damage("game_damaged", game_id, problems[0][1])
        return game, problems

    def _found_damage(self, key, game_id, text):
        # A put-away game damaged in both copies alike: the boot compares only the copies' sizes
        # (reading every journal at each power-up would cost seconds with a full flash), so such
        # damage shows first when the game is read. From then on the report says it (INFO, the
        # export) and the history flags the game; once.
        for _, detail in self.report:
            if type(detail) is tuple and detail[0] == game_id:
                return
        self.report.append((key, (game_id, text)))
        i = self.index.find(game_id)
        if i >= 0 and not self.index.flags[i] & ix.DAMAGED:
            try:
                self.index.add_flag([game_id], ix.DAMAGED, self.next_game_id(), ix.DELETED)
            except OSError:
                pass  # a full flash: the report still says it

    def history(self):
        """Game ids for the history screen, newest first (the running game too)."""
        ids = [self.index.ids[i] for i in range(len(self.index.ids))
               if not self.index.flags[i] & ix.DELETED]
        if self.live is not None and self.live.game_id not in ids:
            ids.append(self.live.game_id)
        ids.sort()
        ids.reverse()
        return ids

    def summary(self, game_id):
        """The index.Entry of a game: id, created, variant, target, players,
        rounds, finished, winners(), exported, damaged, live. The running game
        is replayed for it (its index entry, if any, is out of date)."""
        if self.live is not None and self.live.game_id == game_id:
            e = ix.entry_for(self.read_game(game_id)[0], game_id, 0, self.damaged(game_id))
            e.live = True
            return e
        e = self.index.entry(game_id)
        if e is None or e.flags & ix.DELETED:
            raise StoreError("no_game", game_id)
        return e

    def damaged(self, game_id):
        """ix.DAMAGED if the game's history entry says so (the running game's: rounds found
        missing at boot, watermark.py), else 0."""
        i = self.index.find(game_id)
        return self.index.flags[i] & ix.DAMAGED if i >= 0 else 0

    def summaries(self, game_ids):
        """summary() for a page of the history screen, reading the index once."""
        closed = [i for i in game_ids if self.live is None or i != self.live.game_id]
        found = dict(zip(closed, self.index.entries(closed))) if closed else {}
        out = []
        for game_id in game_ids:
            e = found.get(game_id)
            if game_id not in found:
                e = self.summary(game_id)
            elif e is None or e.flags & ix.DELETED:
                raise StoreError("no_game", game_id)
            out.append(e)
        return out

    # ---- export and deleting ---------------------------------------------------------

    def journals(self):
        """The games' journal files, sizes, flags and change log as the link sends them
        (store/journals.py), live/ and keep/ listed now."""
        from .journals import Journals

        return Journals(self)

    def mark_exported(self, game_ids):
        """Flags put-away games as exported (after the host confirmed). The
        running game is left: it still changes."""
        running = self.live.game_id if self.live is not None else None
        self.index.add_flag([i for i in game_ids if i != running], ix.EXPORTED, self.next_game_id(), ix.DELETED)

    def delete_game(self, game_id):
        """Removes a game: only ever for an explicit user choice (the history's menu)."""
        self.delete_games([game_id])

    def delete_games(self, game_ids):
        from . import deleting

        self._space = None
        try:
            deleting.delete(self, game_ids)
        finally:
            forget(("store.deleting", "store.mend"))

    # ---- space, settings, roster ------------------------------------------------------

    def space(self):
        """The free space (a space.Space). Asking LittleFS walks every file,
        so the answer is kept until the store writes something that takes
        or frees blocks (a journal segment, a put-away, a deletion)."""
        if self._space is None:
            free, total, block_size = self.disk.space()
            size = self.disk.size(ix.INDEX) or 0
            self._space = Space(free, total, block_size, size // block_size + 1)
        return self._space

    def forget_space(self):
        self._space = None

    def space_note(self):
        """"flash_low" or "flash_full" for the home screen, or None."""
        level = self.space().level
        return None if level == "ok" else level

    def save_settings(self, settings):
        self._small(keyval.SETTINGS, dict(settings))
        self.settings = dict(settings)

    def save_roster(self, names):
        names = keyval.clean_roster(names)
        self._small(keyval.ROSTER, names)
        self.roster = names

    def setup_draft(self):
        """The setup a power cut (or a deep sleep) interrupted: what save_setup() kept, or None."""
        value, _ = keyval.load(self.disk, keyval.SETUP, [])
        return value or None

    def save_setup(self, state):
        """Keep a setup being typed (a small list, ui/setup.py), or with None forget it."""
        if state is None:
            if self.disk.size(keyval.SETUP) is not None:
                self._space = None
                try:
                    self.disk.remove(keyval.SETUP)
                except OSError as err:
                    raise StoreError("save_failed", err.errno)
            return
        self._small(keyval.SETUP, state)

    def _small(self, name, value):
        space = self.space()
        if not space.can_write_small():
            raise StoreError("flash_full", space.free_kb)
        self._space = None
        try:
            keyval.save(self.disk, name, value)
        except OSError as err:
            raise StoreError("save_failed", err.errno)

    # ---- for the UI: the self-test's flash check, the update's volume (ui/selftest.py, ui/wifi_update.py) ----

    def write_check(self, name, data):
        """Write `data` to the scratch file `name` in the data folder, read it back and delete it:
        whether it came back the same. OSError when the file system refused any of it. Name it
        "*.new": the boot check removes what a power cut leaves of such a file."""
        disk = self.disk
        try:
            f = disk.open(name, "wb")
            try:
                f.write(data)
            finally:
                f.close()
            return disk.read(name) == data
        finally:
            disk.remove(name)
            self._space = None

    def update_volume(self):
        """The file system update/ keeps its staging area and version pointer on (update/stage.py,
        update/health.py); the store never writes there, update/ never writes the games."""
        return self.disk.vol
