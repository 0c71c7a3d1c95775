# The `tafel rescue` command and rescue_image(), the one entry for every way of getting the raw flash.
#
#   tafel rescue --image flash.bin [-o games.json] [--report] [--device-id ID]
#   tafel rescue --port PORT [--save-image flash.bin] [-o games.json] [--report]   (link.py reads it)
#
# The image is the whole file-system partition: 2 MB, 512 blocks of 4 KB, on a 4 MB chip (6 and
# 14 MB on 8 and 16 MB chips: MicroPython sizes it from the chip),
# erased bytes 0xFF (esptool read_flash of the partition, the simulator's
# flash file, or what the device streams in recovery mode). The games go
# into a tafel-export JSON file (`tafel history import` takes it), the report
# to standard output. Exit codes: 0 every game found was rebuilt whole; 1 a
# game is incomplete, records were found but not placed, or no game was
# found; 2 the file is not a flash image of this size (or cannot be read).
#
# The parts: lfs.py reads LittleFS structures without trusting them,
# volume.py puts folders and files together (every version),
# frames.py and raw.py find journal frames in files and in
# flash no file accounts for, games.py merges and replays,
# result.py writes the export and the report. docs/rescue.md is the
# user's side.
import sys

from ..exits import Exit
from ..lang import count, say, tell
from ..link import cli as link_cli
from ..progress import Bar
from . import games as rebuild
from . import raw, result
from .lfs import BLOCK_SIZE, BLOCKS
from .volume import Volume

IMAGE_SIZE = BLOCKS * BLOCK_SIZE
DEVICE_ID = "rescued"  # the export's device id when the device's own is not known


def rescue_image(raw_bytes, out_path=None, device_id=None, detail=False, progress=None, source=None):
    """Rebuilds every game in a raw flash image: (doc, report text, exit code).
    out_path: where the JSON goes ('-' standard output; None: not written;
    "" the default name); nothing is written when no game was found. doc is
    None for bytes that are not an image of this size. The serial path
    (reading the flash of a device in recovery mode) calls this too."""
    what = tell(source) if source else say("rs_the_image")
    if len(raw_bytes) < IMAGE_SIZE or len(raw_bytes) % BLOCK_SIZE:
        return None, say("rs_not_image", what, len(raw_bytes), IMAGE_SIZE, BLOCKS, BLOCK_SIZE), Exit.USAGE
    image = bytes(raw_bytes)
    half = None if progress is None else (lambda done, total: progress(done // 2, total))
    volume = Volume(image, progress=half)
    said = volume.superblock[2] if volume.superblock else None
    if said is not None and said != volume.count:  # a dump of more (or less) than the partition
        return None, say("rs_other_size", what, volume.count, BLOCK_SIZE, said, said * BLOCK_SIZE), Exit.USAGE
    found = rebuild.from_files(volume)
    rest = None if progress is None else (lambda done, total: progress((total + done) // 2, total))
    runs = raw.file_runs(volume.uncertain()) + raw.raw_runs(volume, rest)
    unplaced, duplicates = rebuild.place(found, runs)
    results = [rebuild.rebuild(f) for f in found.values()]
    doc = result.document(results, unplaced, device_id or DEVICE_ID, source)
    lines = result.report(volume, results, unplaced, duplicates, detail)
    whole = results and not unplaced and all(r.complete for r in results)
    if out_path is not None and results:
        written = link_cli.write_output(doc, "json", out_path, doc["device"]["id"])
        if written != "-":
            lines.append(say("rs_wrote", written, count(len(doc["games"]), "rs_game"),
                             sum(len(g["rounds"]) for g in doc["games"])))
    elif out_path is not None:
        lines.append(say("rs_nothing_written"))
    return doc, "\n".join(lines) + "\n", Exit.OK if whole else Exit.FAILED


def add_parser(commands):
    cmd = commands.add_parser("rescue", help=say("hp_rescue"), description=say("hp_rescue_d"))
    src = cmd.add_mutually_exclusive_group()
    src.add_argument("--image", metavar=say("m_file"), help=say("hp_rescue_image"))
    src.add_argument("--port", metavar="PORT", help=say("hp_rescue_port"))
    cmd.add_argument("--baud", type=int, help=say("hp_rescue_baud"))
    cmd.add_argument("--save-image", metavar=say("m_file"), help=say("hp_rescue_save"))
    cmd.add_argument("-o", "--output", metavar=say("m_file"), default="", help=say("hp_rescue_output", DEVICE_ID))
    cmd.add_argument("--report", action="store_true", help=say("hp_rescue_report"))
    cmd.add_argument("--device-id", metavar="ID", help=say("hp_rescue_device_id", DEVICE_ID))
    cmd.set_defaults(run=run)


def read_image(args):
    """(bytes, name) of the image the arguments name; raises OSError or ValueError.
    With --port run() reads the device's flash over the serial link instead (link.py)."""
    if not getattr(args, "image", None):
        raise ValueError(say("rs_which_flash"))
    with open(args.image, "rb") as f:
        return f.read(), args.image


def run(args):
    if getattr(args, "port", None):  # over the serial link (link.py): bytes, or an exit code
        from .link import read_over_port

        got = read_over_port(args)
        if isinstance(got, int):
            return got
        data, name = got
    else:
        try:
            data, name = read_image(args)
        except (OSError, ValueError) as err:
            print("tafel rescue: %s" % err, file=sys.stderr)
            return Exit.USAGE
    bar = Bar(say("rs_bar", tell(name)))
    try:
        doc, text, code = rescue_image(data, args.output, args.device_id, args.report, bar, name)
    finally:
        bar.stop()
    if doc is None:
        print("tafel rescue: %s" % text, file=sys.stderr)
        return code
    (sys.stderr if args.output == "-" else sys.stdout).write(text)
    return code
