# Mending one game's journal: every copy rewritten whole and alike from the records good in any.
#
# A game is kept twice (store.py: the main tree /data and its twin /twin),
# and its records are read from every file of both, merged by sequence
# number (gamelog.py). After damage, a power cut between the two writes of a
# record, or a directory that fell back to an older state, the copies differ.
# Mending makes them alike again without losing a byte:
#   1. a damaged file's bytes are copied to keep/ first (a torn last frame,
#      a write cut short, is not worth keeping); files after a gap in the
#      numbers move to keep/ whole (their records cannot be replayed);
#   2. the canonical files are computed from the merged records: the live
#      segments packed as append() packs them (so an undamaged copy is
#      already byte for byte canonical and is left alone), or, for a game
#      without live segments, the one closed file;
#   3. every file of either copy that differs in size, was damaged or is
#      missing is written anew (write-new-then-rename); extra segments go.
# Each step can be cut by the power and redone: the records read at the
# next boot are the same, so the result is the same.
from tafel import journal

from .gamelog import GAMES, KEEP, LIVE, SEGMENT_MAX, name, parse


def mend(log, replay=None):
    """Makes every copy of `log`'s journal (a gamelog.GameLog) whole and alike without losing a
    byte: every damaged file's bytes are copied to keep/ (a torn last frame is just cut off),
    files after a gap in the numbers move to keep/ whole, and every copy is rewritten from the
    records that are good in any of them. Each step is write-new-then-rename or a rename, so a
    cut in the middle is finished by doing this again. `replay` (a gamelog.Replay, fresh) is
    fed the records on the way. Returns None when
    all was well, "copy" when a copy only lagged behind (nothing was lost),
    "torn" when a write cut short was cut off, "mended" when damage in one
    copy was made good from the other, "damaged" when records may be lost
    (their bytes are in keep/)."""
    layout, sizes = _walk(log, replay)  # one walk: state, problems, the canonical files, the game
    verdict = None
    damaged = [bad for bad in log._bad if not bad[3]]
    if log._bad:
        verdict = "torn"
    if damaged or log._gap is not None:
        _keep_damaged(log, damaged)
        verdict = "mended"
    if log._gap is not None:
        _keep_after_gap(log)
        verdict = "damaged"
        if replay is not None:
            replay.__init__()
        layout, sizes = _walk(log, replay)
    for disk, path, _, _ in damaged:
        if _stranger(log, path):  # another game's records, kept in keep/: never this game's file
            disk.remove(path)
    if log.next_seq == 0:
        return verdict  # nothing readable: left as it is (bootcheck reports it)
    bad_paths = [(bad[0], bad[1]) for bad in log._bad]
    work = []  # (segment index, disks needing it)
    for i in range(len(layout)):
        path, size = layout[i][0], layout[i][3]
        disks = [d for d in log.disks if _size(d, path, sizes) != size or (d, path) in bad_paths]
        if disks:
            work.append((i, disks))
    for bad in damaged:
        if _longer_than_canonical(bad, layout):
            verdict = "damaged"
    for i, disks in work:
        path, first, last, _ = layout[i]
        for disk in disks:
            disk.write_new(path, _frames(log, first, last))
    extra = _remove_extra(log, layout)
    if work or extra:
        if verdict is None:
            verdict = "copy"
        log.scan()
    return verdict


def _walk(log, replay):
    # Walks the merged records once: the log's state and problems, the
    # canonical files [(path, first seq, last seq, bytes)] (live segments
    # packed as GameLog.append packs them when the game has any, else the one
    # closed journal), and {(id(disk), path): size} of the live segments listed.
    stem = name(log.game_id)
    out = []
    first = size = total = 0
    for seq, payload in log.records():
        if replay is not None:
            replay.feed(seq, payload)
        n = journal.FRAME_OVERHEAD + len(payload)
        total += n
        if size and size + n > SEGMENT_MAX:
            out.append((LIVE + "/" + stem + ".%03d" % len(out), first, seq - 1, size))
            first, size = seq, 0
        size += n
    if size:
        out.append((LIVE + "/" + stem + ".%03d" % len(out), first, log.next_seq - 1, size))
    sizes = {}
    live = False
    for disk, path, n in log.listed:
        if n is not None:
            sizes[(id(disk), path)] = n
            live = True
    if not live:  # a closed game: one file
        return [(GAMES + "/" + stem + ".tj", 0, log.next_seq - 1, total)], None
    return out, sizes


def _size(disk, path, sizes):
    if sizes is None:  # closed copies are not listed (a stat walks games/ anyway)
        return disk.size(path)
    return sizes.get((id(disk), path))


def _frames(log, first, last):
    # The frames first..last, read afresh from the merged copies.
    for seq, payload in log.records():
        if seq > last:
            break
        if seq >= first:
            yield journal.frame(seq, payload)


def _remove_extra(log, layout):
    # Live segments beyond the canonical ones (all their records are in earlier ones, or kept).
    keep = [path for path, _, _, _ in layout]
    stem = name(log.game_id) + "."
    removed = False
    for disk in log.disks:
        for fname, _ in disk.listdir(LIVE):
            path = LIVE + "/" + fname
            if fname.startswith(stem) and path not in keep:
                disk.remove(path)
                removed = True
    return removed


def _longer_than_canonical(bad, layout):
    # Whether a damaged file held more bytes than its canonical self: records
    # after the damage that no other copy has (they are in keep/).
    disk, path, good_end, _ = bad
    for lpath, _, _, size in layout:
        if lpath == path:
            return (disk.size(path) or 0) > size
    return True


def _stranger(log, path):
    for p, text in log.problems:
        if p == path and text.startswith("create record of"):
            return True
    return False


def _keep_damaged(log, damaged):
    log.disk.mkdir(KEEP)
    for disk, path, _, _ in damaged:
        data = disk.read(path)
        if data is not None and not _kept(log, disk, path, data):
            log.disk.write_new(log.keep_name(disk, path), data)


def _kept(log, disk, path, data):
    # Whether these very bytes are in keep/ already (damage left in place is
    # met again at every boot; it is kept once).
    base = log.keep_name(disk, path, fresh=False)
    n = 0
    name = base
    while True:
        got = log.disk.read(name)
        if got is None:
            return False
        if got == data:
            return True
        n += 1
        name = "%s.%d" % (base, n)


def _keep_after_gap(log):
    # Files from the one where the numbers broke on, in reading order, go to keep/ whole.
    log.disk.mkdir(KEEP)
    moving = False
    for disk, path, _ in log.files():
        moving = moving or (disk, path) == log._gap
        if not moving:
            continue
        data = disk.read(path)
        if data is None:
            continue
        if disk is log.disk:
            disk.rename(path, log.keep_name(disk, path))
        else:
            log.disk.write_new(log.keep_name(disk, path), data)
            disk.remove(path)


def kept_ids(disk):
    """Game ids that have bytes in keep/ (set aside; only the user's deleting
    of the game removes them)."""
    out = []
    for fname, _ in disk.listdir(KEEP):
        game_id = _kept_id(fname)
        if game_id is not None and game_id not in out:
            out.append(game_id)
    return out


def remove_kept(disk, game_id):
    """Removes a game's set-aside bytes (the user deleted the game)."""
    for fname, _ in disk.listdir(KEEP):
        if _kept_id(fname) == game_id:
            disk.remove(KEEP + "/" + fname)


def _kept_id(fname):
    # keep/live-000007.003, twin-games-000007.tj.1, ...: the game id, or None (settings, ...)
    stem = fname.rsplit("-", 1)[-1]
    if stem.count(".") > 1:
        stem = stem[:stem.find(".", 7)]
    got = parse(stem)
    return got[0] if got else None
