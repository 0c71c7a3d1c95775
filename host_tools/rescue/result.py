# What a rescue found, written down: the tafel-export document and the plain report.
#
# The document is the one `tafel export` writes (export.document/game_doc,
# records after damage in "set_aside" and games without a readable start in
# "unreadable", both described by salvage.describe), so `tafel history
# import` takes it. Beside that each game carries "rescue" (the copies it
# came from, the raw runs placed in it, disagreements between copies) and
# the document a "rescue" section: the image and the records found but not
# placed in any game.
from ..lang import count, say, tell
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
# In the laptop's language (texts_*_rescue.py); what the rescue found (lang.Phrase: a stop, a
# problem, why a run was placed) said in it too, while the document above keeps it in English.


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
        head = say("rs_not_rebuilt", found.id, tell(result.stop), len(result.set_aside),
                   _seqs(s for s, _ in result.set_aside))
    else:
        state = say("rs_finished") if game.finished else say("rs_not_finished")
        if game.finished and game.winners():
            state += say("rs_won_by", " & ".join(game.winners()))
        head = say("rs_rebuilt", found.id, count(len(game.rounds), "rs_round"), result.used, state,
                   ", ".join(game.players))
    lines = [head]
    if game is not None and result.stop is not None:
        aside = _seqs(s for s, _ in result.set_aside)
        n = len(result.set_aside)
        lines.append(say("rs_incomplete", tell(result.stop),
                         say("rs_set_aside", count(n, "rs_intact_record"), aside) if n else ""))
    if found.foreign:
        start = [decode(p) for s, p in found.foreign if s == 0]
        who = " (%s)" % ", ".join(start[0][5]) if start and start[0] and start[0][0] == "create" else ""
        lines.append(say("rs_another_game", who, len(found.foreign)))
    copies = [c for c in _copies(found) if c.seqs]
    current = [c.path for c in copies if c.rank == CURRENT]
    older = [c for c in copies if c.rank != CURRENT]
    if copies:
        text = ", ".join(current) or say("rs_no_current")
        if older:
            text += say("rs_older_only", say("rs_and") if current else ";", count(len(older), "rs_file"))
        lines.append(say("rs_from", text))
    useful = [r for r in found.raw if r[3]]
    if found.raw:
        whys = sorted(set(_short(r[4]) for r in useful))
        lines.append(say("rs_from_raw", count(sum(r[3] for r in useful), "rs_record"), len(useful), len(found.raw),
                         "; ".join(whys) or "-"))
    guessed = sum(r[3] for r in useful if _continued(r[4]))
    if guessed:
        lines.append(say("rs_guessed", guessed))
    if detail:
        for where, first, last, new, why in useful:
            lines.append(say("rs_raw_run", tell(where), first, last, new, tell(why)))
    problems = [(c.path, p) for c in _copies(found) for p in c.problems] + [("", t) for t in found.conflicts]
    if problems:
        lines.append(say("rs_damage", count(len(problems), "rs_problem"), ":" if detail else say("rs_report_lists")))
    else:
        lines.append(say("rs_no_damage"))
    if detail:
        for path, problem in problems:
            lines.append("    %s%s" % (path + ": " if path else "", tell(problem)))
        for c in _copies(found):
            lines.append(say("rs_copy", c.path, say("rs_current") if c.rank == CURRENT else "",
                             count(c.versions, "rs_version"), _seqs(c.seqs) or say("rs_none"),
                             say("rs_older_unreadable", c.older_problems) if c.older_problems else ""))
    return lines


def report(volume, results, unplaced, duplicates, detail=False):
    """The plain report, as lines."""
    lines = []
    sb = volume.superblock
    if sb is not None:
        lines.append(say("rs_fs", sb[0] >> 16, sb[0] & 0xFFFF, sb[2], sb[1],
                         "" if (sb[1], sb[2]) == (volume.block_size, volume.count) else
                         say("rs_fs_layout", volume.count, volume.block_size)))
    elif volume.meta:
        lines.append(say("rs_fs_no_root", count(len(volume.orphans), "rs_folder")))
    else:
        lines.append(say("rs_fs_none"))
    lines.append(say("rs_blocks", volume.count - len(volume.erased), len(volume.erased), len(volume.meta),
                     len(volume.files)))
    hurt = volume.log_damage()
    if hurt:
        mid = [b for b in hurt if hurt[b][1]]
        lines.append(say("rs_meta_damage", count(len(hurt), "rs_block"),
                         say("rs_meta_recovered", len(mid)) if mid else ""))
        if detail:
            for b, (gaps, recovered) in sorted(hurt.items()):
                lines.append(say("rs_meta_block", b, volume.paths.get(b, "?"),
                                 ", ".join("%d-%d" % (x, y - 1) for x, y in gaps), count(recovered, "rs_later_commit")))
    if detail:
        for path, names in sorted(volume.folders().items()):
            lines.append("  %s  %s" % (path, " ".join(names)))
    if not results:
        lines.append(say("rs_no_games"))
    for result in sorted(results, key=lambda r: r.found.id):
        lines.extend(game_lines(result, detail))
    if duplicates and detail:
        lines.append(say("rs_stale", duplicates))
    if unplaced:
        found = sum(len(run.frames) for run, _, _ in unplaced)
        lines.append(say("rs_unplaced", found, count(len(unplaced), "rs_run")))
        for run, why, could in unplaced:
            kinds = sorted(set(f.rec[0] for f in run.frames))
            seats = sorted(set(f.seats() for f in run.frames if f.seats() is not None))
            lines.append(say("rs_unplaced_run", tell(run.where()), _seqs(f.seq for f in run.frames), ", ".join(kinds),
                             say("rs_seats", "/".join(str(s) for s in seats)) if seats else "", tell(why),
                             say("rs_would_fit", say("rs_or").join(str(g) for g in could)) if could else ""))
    whole = sum(1 for r in results if r.complete)
    if results:
        lines.append(say("rs_result", count(len(results), "rs_game"), say("rs_all_whole") if whole == len(results)
                         else say("rs_some_whole", whole, len(results) - whole)))
    return lines


def _continued(how):
    # placed because it carries on a game's numbers (games.py, _continues), not by a record known
    return getattr(how, "key", None) == "rs_continues"


def _short(how):
    # how a run was placed, without its detail: "it continues the game's numbers" (from record N on)
    return say("rs_continues_short") if _continued(how) else tell(how)

