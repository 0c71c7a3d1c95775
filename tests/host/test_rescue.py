# tafel rescue: games rebuilt from raw flash images that real LittleFS wrote (MicroPython's), whole and damaged.
#
# The image is made once per module by the MicroPython unix port playing an
# evening with the device's own store code on the emulated flash
# (mpy_rescue_image.py): game 1 (6 seats, an edit and an undo, finished),
# game 2 (4 seats, 300 rounds, finished: its closed journal spans two flash
# blocks), game 3 (3 seats, 75 rounds, running in live segments). The same
# port says whether LittleFS still mounts a damaged copy. What the script
# acknowledged is the truth every rescue is compared with.
import json
import random
import subprocess
from pathlib import Path

import pytest

from tafel_host import cli
from tafel_host.history.database import History
from tafel_host.link import export, salvage
from tafel_host.rescue import lfs
from tafel_host.rescue.cli import IMAGE_SIZE, rescue_image
from tafel_host.rescue.frames import scan
from tafel_host.rescue.raw import raw_runs
from tafel_host.rescue.volume import Volume
from tafel_host.sim.launcher import find_micropython

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "host" / "mpy_rescue_image.py"
BLOCK = lfs.BLOCK_SIZE


class Evening:
    def __init__(self, image, stored, folder):
        self.image = image
        self.folder = folder
        self.records = {int(k): [bytes.fromhex(h) for h in v] for k, v in stored["games"].items()}
        self.running = stored["running"]
        self.volume = Volume(image)

    def expected(self, game_id):
        game, used, damage = export.rebuild(self.records[game_id])
        return export.game_doc(game, used, damage)

    def blocks_of(self, path):
        """The metadata blocks (both of the pair) of a folder, e.g. "/data/live/"."""
        return sorted(b for b, p in self.volume.paths.items() if p == path)

    def twin(self):
        return any(p.startswith("/twin/") for p in self.volume.paths.values())


def _mpy(*args):
    out = subprocess.run([str(find_micropython()), "-X", "heapsize=8M", str(SCRIPT), str(ROOT)] + list(args),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rescue")
    path = folder / "evening.img"
    stored = _mpy("build", str(path))
    return Evening(path.read_bytes(), stored, folder)


def erased(image, blocks):
    out = bytearray(image)
    for b in blocks:
        out[b * BLOCK:(b + 1) * BLOCK] = b"\xff" * BLOCK
    return bytes(out)


def mounts(evening, image):
    path = evening.folder / "probe.img"
    path.write_bytes(image)
    return _mpy("mount", str(path))["mounts"]


def games_of(doc):
    return {g["id"]: g for g in doc["games"]}


def same_game(got, want):
    keys = ("id", "created", "variant", "target", "players", "values", "rounds", "totals",
            "finished", "ended_early", "winners", "records", "damage")
    return {k: got[k] for k in keys} == {k: want[k] for k in keys}


def assert_all_rebuilt(evening, doc):
    got = games_of(doc)
    assert sorted(got) == sorted(evening.records)
    for game_id in evening.records:
        assert same_game(got[game_id], evening.expected(game_id)), game_id
        assert got[game_id]["set_aside"] == []


# ---- whole and unmountable images ----------------------------------------------------------


def test_an_intact_image_gives_back_every_game_exactly(evening):
    assert len(evening.image) == IMAGE_SIZE and mounts(evening, evening.image)
    assert sorted(evening.records) == [1, 2, 3] and evening.running == 3
    doc, report, code = rescue_image(evening.image)
    assert code == 0
    assert_all_rebuilt(evening, doc)
    assert doc["rescue"]["unplaced"] == [] and doc["unreadable"] == []
    assert "root folder readable" in report
    assert "game 3: 75 rounds rebuilt from 76 records, not finished" in report
    assert "game 2: 300 rounds rebuilt from 302 records, finished" in report


def test_the_export_is_one_tafel_history_imports(evening, tmp_path):
    out = tmp_path / "rescued.json"
    doc, _, code = rescue_image(evening.image, str(out), device_id="esp32-0011aabbccdd")
    assert code == 0
    back = export.load(str(out))
    assert back["device"]["id"] == "esp32-0011aabbccdd"
    with History(tmp_path / "history.sqlite3") as hist:
        assert hist.import_doc(back) == {"added": 3, "updated": 0, "unchanged": 0}
        assert sorted(g["id"] for g in hist.games()) == [1, 2, 3]


def test_root_pair_erased_no_longer_mounts_but_every_game_comes_back(evening):
    image = erased(evening.image, [0, 1])
    assert not mounts(evening, image)
    doc, report, code = rescue_image(image)
    assert code == 0
    assert_all_rebuilt(evening, doc)
    assert "root (blocks 0 and 1) is NOT readable" in report
    assert "/?data@" in report  # the folder found without its parent, named by what it holds


def test_every_metadata_block_erased_leaves_the_raw_scan_to_rebuild_all(evening):
    image = erased(evening.image, sorted(evening.volume.meta))
    assert not mounts(evening, image)
    doc, report, code = rescue_image(image)
    assert code == 0
    assert_all_rebuilt(evening, doc)
    assert "no LittleFS metadata found" in report
    # Game 2's closed journal spans two blocks: the frame cut by the first
    # block's end is joined to its rest behind the second block's pointer.
    whole = [r for r in raw_runs(Volume(image)) if [f.payload for f in r.frames] == evening.records[2]]
    assert whole and all(len(r.blocks) == 2 for r in whole)


# ---- damage to one folder ---------------------------------------------------------------


@pytest.mark.parametrize("which", ["newer block", "both blocks"])
def test_live_folder_metadata_erased_still_gives_the_running_game_whole(evening, which):
    # The newer block alone: LittleFS falls back to the older one, which misses the latest rounds.
    pair = evening.blocks_of("/data/live/")
    if which == "newer block":
        pair = [max(pair, key=lambda b: evening.volume.meta[b][0])]
    doc, report, code = rescue_image(erased(evening.image, pair))
    assert code == 0
    assert_all_rebuilt(evening, doc)
    running = games_of(doc)[evening.running]["rescue"]
    paths = [c["path"] for c in running["copies"] if c["current"]]
    if which == "both blocks" and evening.twin():
        assert paths and all(p.startswith("/twin/live/") for p in paths)
    elif which == "both blocks":
        assert running["raw"]  # found by the raw frame scan


def test_live_folders_of_both_copies_erased_leave_it_to_the_raw_scan(evening):
    blocks = evening.blocks_of("/data/live/") + evening.blocks_of("/twin/live/")
    doc, report, code = rescue_image(erased(evening.image, blocks))
    assert code == 0
    assert_all_rebuilt(evening, doc)
    running = games_of(doc)[evening.running]["rescue"]
    assert not any(c["current"] for c in running["copies"])
    assert sum(r["new"] for r in running["raw"]) == len(evening.records[evening.running])
    # a later segment holds no create record: it is placed as the only game it continues
    assert any(r["why"].startswith("it continues the game's numbers") for r in running["raw"])


def test_a_flipped_bit_early_in_a_metadata_log_loses_none_of_the_later_commits(evening):
    block = max(evening.blocks_of("/data/live/"), key=lambda b: evening.volume.meta[b][0])
    buf = evening.image[block * BLOCK:(block + 1) * BLOCK]
    rev, commits = lfs.parse_block(buf)
    assert not any(c.resynced for c in commits) and len(commits) > 20
    flipped = bytearray(evening.image)
    flipped[block * BLOCK + commits[3].start + 6] ^= 0x10
    _, after = lfs.parse_block(bytes(flipped[block * BLOCK:(block + 1) * BLOCK]))
    assert len(after) == len(commits) - 1  # only the damaged commit is gone
    assert [c.start for c in after[3:]] == [c.start for c in commits[4:]] and after[-1].resynced
    doc, _, code = rescue_image(bytes(flipped))
    assert code == 0
    assert_all_rebuilt(evening, doc)


def test_records_after_a_gap_are_set_aside_and_reported(evening):
    # Every block holding record 30 of the running game goes: every version of
    # its first segment with 31 records or more, in both copies.
    game_id = evening.running
    recs = evening.records[game_id]
    gone = [b for b in range(evening.volume.count)
            if any(f.seq == 30 and f.payload == recs[30] for f in scan(evening.image[b * BLOCK:(b + 1) * BLOCK]))]
    assert gone
    image = erased(evening.image, gone)
    left = set(f.seq for b in range(evening.volume.count) for f in scan(image[b * BLOCK:(b + 1) * BLOCK])
               if f.seq < len(recs) and f.payload == recs[f.seq])
    after = min(s for s in left if s > 30)  # where the next segment begins
    assert after < len(recs) - 1
    doc, report, code = rescue_image(image)
    assert code == 1
    game = games_of(doc)[game_id]
    assert game["records"] == 30 and len(game["rounds"]) == 29
    assert game["rounds"] == evening.expected(game_id)["rounds"][:29]
    count = len(recs) - after
    assert game["damage"] == "records 30 to %d are missing; %d intact records after it set aside" % (after - 1, count)
    aside = game["set_aside"]
    assert [r["seq"] for r in aside] == list(range(after, len(recs)))
    assert aside[0] == salvage.describe(after, recs[after], game["players"]) and aside[0]["kind"] == "round"
    assert "INCOMPLETE: records 30 to %d are missing; %d intact records after it set aside (numbers %d-%d)" % (
        after - 1, count, after, len(recs) - 1) in report
    for other in (1, 2):
        assert same_game(games_of(doc)[other], evening.expected(other))


def test_another_game_under_a_reused_id_is_kept_apart_not_mixed_in(tmp_path):
    # An older firmware gave id 1 twice; the other game's journal lies set aside in keep/.
    path = tmp_path / "reused.img"
    stored = _mpy("build", str(path), "reused")
    foreign = [bytes.fromhex(h) for h in stored["foreign"]]
    doc, report, code = rescue_image(path.read_bytes())
    assert code == 1
    game = games_of(doc)[1]
    want = export.game_doc(*export.rebuild([bytes.fromhex(h) for h in stored["games"]["1"]]))
    assert game["rounds"] == want["rounds"] and game["players"] == want["players"]
    assert game["set_aside"] == [salvage.describe(s, p, foreign=True) for s, p in enumerate(foreign)]
    assert game["damage"] == "4 records of another game with this id (foreign in set_aside)"
    assert "ANOTHER GAME with this id (Otto, Paula): its 4 records are kept apart" in report


# ---- what is no flash image ---------------------------------------------------------------


def test_random_bytes_of_the_right_size_find_no_games(tmp_path, capsys):
    noise = random.Random(13).randbytes(IMAGE_SIZE)
    path = tmp_path / "noise.img"
    path.write_bytes(noise)
    code = cli.main(["rescue", "--image", str(path), "-o", str(tmp_path / "out.json")])
    out, err = capsys.readouterr()
    assert code == 1
    assert "no games found" in out and "nothing written" in out and "Traceback" not in out + err
    assert not (tmp_path / "out.json").exists()


def test_a_file_of_another_size_is_refused(tmp_path, capsys):
    path = tmp_path / "short.img"
    path.write_bytes(b"\xff" * (IMAGE_SIZE - BLOCK))
    assert cli.main(["rescue", "--image", str(path)]) == 2
    err = capsys.readouterr().err
    assert "2093056 bytes, not a Tafel flash image (2097152 bytes" in err
    path.write_bytes(b"\xff" * (IMAGE_SIZE + 100))  # not whole blocks
    assert cli.main(["rescue", "--image", str(path)]) == 2
    assert cli.main(["rescue", "--image", str(tmp_path / "missing.img")]) == 2


def test_the_file_system_of_a_16_mb_chip_gives_back_every_game(tmp_path):
    # MicroPython makes the file system of all the flash after 0x200000: 14 MB, 3584 blocks
    path = tmp_path / "sixteen.img"
    stored = _mpy("build", str(path), "blocks", "3584")
    image = path.read_bytes()
    assert len(image) == 3584 * BLOCK
    doc, report, code = rescue_image(image)
    assert code == 0, report
    got = games_of(doc)
    assert sorted(got) == sorted(int(i) for i in stored["games"])
    for game_id, records in stored["games"].items():
        assert got[int(game_id)]["records"] == len(records)


def test_a_dump_of_more_than_the_partition_is_refused_with_what_to_read(evening, capsys):
    doc, report, code = rescue_image(evening.image + b"\xff" * IMAGE_SIZE)  # the 4 MB chip's last 2 MB, twice
    assert doc is None and code == 2
    assert "1024 blocks of 4096, but its file system says it has 512" in report
    assert "2097152 bytes from 0x200000" in report


def test_the_command_writes_the_export_and_prints_the_report(evening, tmp_path, capsys):
    image = tmp_path / "flash.bin"
    image.write_bytes(erased(evening.image, [0, 1]))
    out = tmp_path / "games.json"
    assert cli.main(["rescue", "--image", str(image), "-o", str(out), "--report"]) == 0
    text = capsys.readouterr().out
    assert "wrote %s: 3 games (404 rounds)" % out in text
    assert "copy /?data@" in text  # --report lists every copy
    assert sorted(g["id"] for g in export.load(str(out))["games"]) == [1, 2, 3]
