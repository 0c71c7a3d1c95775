# What a rescue found, written down: the tafel-export document and the plain report.
#
# The document is the one `tafel export` writes (export.document/game_doc,
# records after damage in "set_aside" and games without a readable start in
# "unreadable", both described by salvage.describe), so `tafel history
# import` takes it. Beside that each game carries "rescue" (the copies it
# came from, the raw runs placed in it, disagreements between copies) and
# the document a "rescue" section: the image and the records found but not
# placed in any game.
from ..link import export, salvage
from .frames import decode
from .volume import CURRENT


def _copies(found):
    # current copies first, then by path
    return sorted(found.copies.values(), key=lambda c: (c.rank, c.path))


def damage(result):
    """The export's "damage" text of a rebuilt game: None when it is whole."""
    out = []
    if result.stop is not None:
        n = len(result.set_aside)
        out.append(result.stop if not n else "%s; %d intact record%s after it set aside"
                   % (result.stop, n, "" if n == 1 else "s"))
    n = len(result.found.foreign)
    if n:
        out.append("%d record%s of another game with this id (foreign in set_aside)" % (n, "" if n == 1 else "s"))
    return "; ".join(out) or None


def _aside(result, players=None):
    out = [salvage.describe(s, p, players) for s, p in result.set_aside]
    return out + [salvage.describe(s, p, foreign=True) for s, p in sorted(result.found.foreign)]


def game_entry(result):
    """The export's game dict for a rebuilt game, or None if it has no create record."""
    if result.game is None:
        return None
    game, found = result.game, result.found
    doc = export.game_doc(game, result.used, damage(result))
    doc["set_aside"] = _aside(result, game.players)
    doc["rescue"] = {
        "copies": [{"path": c.path, "current": c.rank == CURRENT, "versions": c.versions, "records": len(c.seqs),
                    "problems": c.problems} for c in _copies(found)],
        "raw": [{"where": w, "first": a, "last": b, "new": n, "why": why} for w, a, b, n, why in found.raw if n],
        "conflicts": list(found.conflicts),
    }
    return doc


def document(results, unplaced, device_id, source):
    games = [d for d in (game_entry(r) for r in results) if d is not None]
    unreadable = [{"id": r.found.id, "damage": damage(r), "set_aside": _aside(r)} for r in results if r.game is None]
    doc = export.document(device_id, None, games, unreadable=unreadable)
    doc["rescue"] = {
        "image": source,
        "unplaced": [{"where": run.where(), "why": why, "could_be": could,
                      "records": [salvage.describe(f.seq, f.payload) for f in run.frames]}
                     for run, why, could in unplaced],
    }
    return doc


# ---- the report ------------------------------------------------------------------------


def _seqs(items):
    # [3, 4, 5, 9] -> "3-5, 9"
    out, start, prev = [], None, None
    for s in sorted(items):
        if start is None:
            start = prev = s
        elif s == prev + 1:
            prev = s
        else:
            out.append("%d" % start if start == prev else "%d-%d" % (start, prev))
            start = prev = s
    if start is not None:
        out.append("%d" % start if start == prev else "%d-%d" % (start, prev))
    return ", ".join(out)


def game_lines(result, detail=False):
    found, game = result.found, result.game
    if game is None:
        head = "game %d: NOT rebuilt (%s); %d intact records set aside under \"unreadable\" (numbers %s)" % (
            found.id, result.stop, len(result.set_aside), _seqs(s for s, _ in result.set_aside))
    else:
        state = "finished" if game.finished else "not finished"
        if game.finished and game.winners():
            state += ", won by " + " & ".join(game.winners())
        head = "game %d: %d round%s rebuilt from %d records, %s; %s" % (
            found.id, len(game.rounds), "" if len(game.rounds) == 1 else "s", result.used,
            state, ", ".join(game.players))
    lines = [head]
    if game is not None and result.stop is not None:
        aside = _seqs(s for s, _ in result.set_aside)
        n = len(result.set_aside)
        lines.append("  INCOMPLETE: %s%s" % (result.stop, "; %d intact record%s after it set aside (numbers %s)"
                                            % (n, "" if n == 1 else "s", aside) if n else ""))
    if found.foreign:
        start = [decode(p) for s, p in found.foreign if s == 0]
        who = " (%s)" % ", ".join(start[0][5]) if start and start[0] and start[0][0] == "create" else ""
        lines.append("  ANOTHER GAME with this id%s: its %d records are kept apart, marked foreign in set_aside"
                     % (who, len(found.foreign)))
    copies = [c for c in _copies(found) if c.seqs]
    current = [c.path for c in copies if c.rank == CURRENT]
    older = [c for c in copies if c.rank != CURRENT]
    if copies:
        text = ", ".join(current) or "no current file"
        if older:
            text += "%s %d file%s found only in older versions" % (
                " and" if current else ";", len(older), "" if len(older) == 1 else "s")
        lines.append("  from " + text)
    useful = [r for r in found.raw if r[3]]
    if found.raw:
        whys = sorted(set(r[4].split(" (")[0] for r in useful))
        lines.append("  from the raw scan: %d record%s no file held, from %d of %d runs found (placed by %s)" % (
            sum(r[3] for r in useful), "" if sum(r[3] for r in useful) == 1 else "s", len(useful),
            len(found.raw), "; ".join(whys) or "-"))
    guessed = sum(r[3] for r in useful if r[4].startswith("it continues"))
    if guessed:
        lines.append("  note: %d of them hold no create record and no record known from a copy; they were placed "
                     "because they carry on this game's numbers and no other game fits them" % guessed)
    if detail:
        for where, first, last, new, why in useful:
            lines.append("    raw run at %s: records %d-%d, %d new, placed by %s" % (where, first, last, new, why))
    problems = [(c.path, p) for c in _copies(found) for p in c.problems] + [("", t) for t in found.conflicts]
    if problems:
        lines.append("  damage seen: %d problem%s%s" % (len(problems), "" if len(problems) == 1 else "s",
                                                       ":" if detail else " (--report lists them)"))
    else:
        lines.append("  damage seen: none")
    if detail:
        for path, problem in problems:
            lines.append("    %s%s" % (path + ": " if path else "", problem))
        for c in _copies(found):
            lines.append("    copy %s: %s%d version%s, records %s%s" % (
                c.path, "current, " if c.rank == CURRENT else "", c.versions, "" if c.versions == 1 else "s",
                _seqs(c.seqs) or "none",
                "; %d older versions partly unreadable" % c.older_problems if c.older_problems else ""))
    return lines


def report(volume, results, unplaced, duplicates, detail=False):
    """The plain report, as lines."""
    lines = []
    sb = volume.superblock
    if sb is not None:
        lines.append("file system: LittleFS v%d.%d, %d blocks of %d bytes; root folder readable%s"
                     % (sb[0] >> 16, sb[0] & 0xFFFF, sb[2], sb[1],
                        "" if (sb[1], sb[2]) == (volume.block_size, volume.count) else
                        " (NOT this device's layout: read as %d blocks of %d)" % (volume.count, volume.block_size)))
    elif volume.meta:
        lines.append("file system: the root (blocks 0 and 1) is NOT readable: the device cannot mount this "
                     "flash; %d folder%s found without it" % (len(volume.orphans), "" if len(volume.orphans) == 1 else "s"))
    else:
        lines.append("file system: no LittleFS metadata found in the image")
    lines.append("blocks: %d written, %d erased, %d metadata; %d files (all versions)"
                 % (volume.count - len(volume.erased), len(volume.erased), len(volume.meta), len(volume.files)))
    hurt = volume.log_damage()
    if hurt:
        mid = [b for b in hurt if hurt[b][1]]
        lines.append("metadata damage: %d block%s with unreadable commits%s" % (
            len(hurt), "" if len(hurt) == 1 else "s",
            "; in %d of them later commits were recovered past the damage" % len(mid) if mid else ""))
        if detail:
            for b, (gaps, recovered) in sorted(hurt.items()):
                lines.append("  block %d (%s): unreadable bytes %s; %d later commit%s recovered" % (
                    b, volume.paths.get(b, "?"), ", ".join("%d-%d" % (x, y - 1) for x, y in gaps),
                    recovered, "" if recovered == 1 else "s"))
    if detail:
        for path, names in sorted(volume.folders().items()):
            lines.append("  %s  %s" % (path, " ".join(names)))
    if not results:
        lines.append("no games found")
    for result in sorted(results, key=lambda r: r.found.id):
        lines.extend(game_lines(result, detail))
    if duplicates and detail:
        lines.append("stale copies of known records outside any file: %d runs (nothing new in them)" % duplicates)
    if unplaced:
        count = sum(len(run.frames) for run, _, _ in unplaced)
        lines.append("records found but not placed: %d in %d run%s" % (count, len(unplaced), "" if len(unplaced) == 1 else "s"))
        for run, why, could in unplaced:
            kinds = sorted(set(f.rec[0] for f in run.frames))
            seats = sorted(set(f.seats() for f in run.frames if f.seats() is not None))
            lines.append("  %s: records %s (%s%s): %s%s" % (
                run.where(), _seqs(f.seq for f in run.frames), ", ".join(kinds),
                "; %s seats" % "/".join(str(s) for s in seats) if seats else "", why,
                "; it would fit game %s" % " or ".join(str(g) for g in could) if could else ""))
    whole = sum(1 for r in results if r.complete)
    if results:
        lines.append("result: %d game%s found, %s" % (
            len(results), "" if len(results) == 1 else "s",
            "every one rebuilt whole" if whole == len(results) else "%d rebuilt whole, %d not" % (whole, len(results) - whole)))
    return lines

