# The figure blocks in prose: the README's storage, damage and export passages and docs/*.md's figures.
#
# Each is a function of `load` (bench/figures.py) returning Markdown; see bench/figure_blocks.py.
import re
import textwrap

from benchlib import table


def block(*parts):
    """Paragraphs (wrapped at 78 columns) and tables (as they are), a blank line between them."""
    return "\n\n".join(part if part.startswith("|") else textwrap.fill(
        part, 78, break_long_words=False, break_on_hyphens=False) for part in parts)


def _number(text):
    return float(re.search(r"-?[\d,]*\.?\d+", text).group(0).replace(",", ""))


def _source(load, *names):
    return "*From %s.*" % "; ".join(load(n).source() for n in names)


def storage_wear(load):
    """README, Storage: what a round and a boot cost."""
    wear = load("storage_wear")
    designs = wear.table("design")
    store = designs.row("Tafel store")
    single = designs.row("one file, reopen")
    r1, r100, r300, mean = (c.split(" / ") for c in store[1:5])
    listing = wear.table("what")
    boot, walk = listing.rows[0], listing.rows[1]
    return block("What it costs (`bench/storage_wear.py`: the store on LittleFS over the emulated 2 MB flash, "
            "MicroPython unix port): a 10-seat round programs %s / %s / %s at round 1 / 100 / 300 (mean %s, worst "
            "%s; budget 2 KB) and erases %s blocks on average (a single journal file: %s); every game "
            "takes twice its flash. A boot with 500 stored games reads %s KB in %s flash reads (%s ms on the unix "
            "port, of which LittleFS's free-space walk %s KB / %s ms), %s times what loading one game reads; the "
            "chip's time is not measured here." % (
                r1[0], r100[0], r300[0], mean[0], store[5], mean[1], single[4].split(" / ")[1], boot[2],
                "{:,}".format(int(_number(boot[1]))), boot[3], walk[2], walk[3], boot[4].rstrip("x")),
            _source(load, "storage_wear"))


def flash_damage(load):
    """README, Storage: the damage campaign's table."""
    r = load("flash_damage")
    head, *rows = r.columns("damage")
    evening = r.find(r"^(The evening: .*)$")
    return block("`bench/flash_damage.py --zero` (%s; every game of the evening plus one started after the "
                 "damage, judged after the boot and again after playing on and a reboot). %s." % (
                     r.measured_on or "the MicroPython unix port", evening),
                 table(head, rows, "l" + "r" * (len(head) - 1)), _source(load, "flash_damage"))


def export_speed(load):
    """README, Taking games home: export against mpremote."""
    r = load("export_speed")
    t = r.table("what")
    played = r.find(r"played (\d+) games \((\d+) rounds\)", None)
    tafel, sim, repl = t.head[1], t.head[2], t.head[3]
    seconds = [_number(t.cell("seconds", c)) if re.search(r"\d", t.cell("seconds", c)) else None
               for c in (tafel, sim, repl)]
    wire = [_number(t.cell("wire bytes device", c)) for c in (tafel, sim)]
    from_repl = "; from a unix-port REPL behind the same pacing (closer to a device's C REPL) %.1f times" % (
        seconds[2] / seconds[0]) if seconds[2] else " (the paced unix-port REPL's copy failed: see the results file)"
    return block(
        "**Speed** (`bench/export_speed.py`: %s games of three players to 200, %s rounds, on the simulator's "
        "serial paced to 115200 baud; the simulator on %s):" % (
            played[0], played[1], re.sub("^the simulator on ", "", r.measured_on)),
        t.text,
        "The export keeps the line %s busy (budget: 90 %%); base64 and the frame headers make %s of those bytes "
        "journal. `mpremote cp -r` of the same files sends %.1f times the bytes (hex escapes and a command per "
        "chunk): on the simulator's own port, whose REPL runs in the simulated device's 10 ms steps, it takes "
        "%.1f times as long%s." % (t.cell("share", tafel), t.cell("journal bytes /", tafel), wire[1] / wire[0],
                                    seconds[1] / seconds[0], from_repl),
        _source(load, "export_speed"))


def export_pacing(load):
    """docs/protocol.md, section 5: the export's figures."""
    r = load("export_speed")
    t = r.table("what")
    played = r.find(r"played (\d+) games \((\d+) rounds\)", None)
    tafel = t.head[1]
    return block("On the simulated line at 115200 baud, %s stored games (%s rounds: %.1f KB of journal, %.1f KB on the "
            "wire) take %s s: %s of the line rate, %s games a second (`mpremote cp -r` of the same journal files on "
            "the same line: %s s on the simulator's own port%s)." % (
                played[0], played[1], _number(t.cell("journal bytes", tafel)) / 1000.0,
                _number(t.cell("wire bytes device", tafel)) / 1000.0, t.cell("seconds", tafel),
                t.cell("share", tafel), t.cell("games per second", tafel), t.cell("seconds", t.head[2]),
                ", %s s from a unix-port REPL paced alike" % t.cell("seconds", t.head[3])
                if re.search(r"\d", t.cell("seconds", t.head[3])) else ""), _source(load, "export_speed"))


def _flash_read(load):
    r = load("flash_read_speed")
    evening = r.table("flash").rows[0]
    full = r.find(r"a full block: (\d+) bytes on the wire, ([\d.]+) s; 2 MB with every block full: (\d+) bytes, "
                   r"about (\d+) s \(([\d.]+) min\)", None)
    return r, evening, full


def flash_read(load):
    """docs/protocol.md, FLASH_READ: how long a raw read takes."""
    r, evening, full = _flash_read(load)
    return block("A read is line-bound: a full 4 KB block is %s bytes on the wire (base64, frame heads), so 2 MB with "
            "every block written takes about %s minutes at 115200 baud; an evening's flash (%s blocks in use) %s s, "
            "%s of the line rate (`bench/flash_read_speed.py`, the simulator on the device build)." % (
                "{:,}".format(int(full[0])), full[4], evening[1], evening[4], evening[5]),
                 _source(load, "flash_read_speed"))


def rescue_read(load):
    """docs/rescue.md: the same figures, briefly."""
    r, evening, full = _flash_read(load)
    return block("An evening's flash comes in seconds (%s s for %s used blocks at 115200 baud), a full one in about %s "
            "minutes (`bench/flash_read_speed.py`)." % (evening[4], evening[1], full[4]),
                 _source(load, "flash_read_speed"))


def update_figures(load):
    """docs/updates.md, Figures: what verifying and sending an update cost."""
    crypto = load("update_crypto")
    verify = crypto.table("(1) Verification")
    size = crypto.table("(2) Bundle size")
    heap = crypto.table("verify_bundle")
    update = load("update_speed")
    timed = update.table("update")
    bundle = update.find(r"\(bundle [^:]+: (\d+) files, ([\d,]+) bytes", None)
    phases = update.table("phase")
    rows = [
        ("Ed25519 verify (lib/tafel/bundle/ed25519.py)", verify.cell("Ed25519", "cost") + ", " +
         verify.cell("Ed25519", "time") + " on this laptop", "`bench/update_crypto.py`, 64-bit unix port"),
        ("SHA-512 in Python", verify.cell("SHA-512", "cost"), "the same"),
        ("verify a whole bundle (%s)" % verify.cell("verify_bundle", "cost"), verify.cell("verify_bundle", "time"),
         "the same"),
        ("bundle (zlib, 1 KB window) against the files on the device", size.cell("bundle, zlib", "of raw"),
         "`bench/update_crypto.py`"),
        ("free at the verify's peak in a 64 KB heap (budget 20 KB)", heap.cell("verify only", "free at peak"),
         "`bench/update_crypto.py`, 64-bit unix port"),
        ("update over the simulated serial at 115200 baud: whole app (%s files, %s bytes) / one changed file"
         % bundle, "%s s / %s s (budgets 10 s / 2 s)" % (timed.cell("full app", "seconds"),
                                                          timed.cell("one file", "seconds")),
         "`bench/update_speed.py`, line time"),
        ("free at the staging code's peak (alone, not inside the running app) in a 64 KB heap: head verify / "
         "apply (budget 20 KB)", "%s / %s B (modules %s B)" % (phases.rows[0][2], phases.rows[1][2],
                                                               phases.rows[1][1]),
         "`bench/update_speed.py --heap`, 64-bit unix port"),
    ]
    return block(table(("what", "figure", "measured by"), rows, "lll"),
                 "The unix port is 64-bit: its heap figures are an upper bound for the 32-bit ESP32, whose own "
                 "figures (an update over USB and over Wi-Fi inside the running app) are `make heap`'s (README, "
                 "Figures); its times are the laptop's.", _source(load, "update_crypto", "update_speed"))


DOC_BLOCKS = {
    "storage_wear": storage_wear,
    "flash_damage": flash_damage,
    "export_speed": export_speed,
    "export_pacing": export_pacing,
    "flash_read": flash_read,
    "rescue_read": rescue_read,
    "update_figures": update_figures,
}
