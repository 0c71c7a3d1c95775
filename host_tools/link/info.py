# `tafel info`'s page: the device, its flash, clock, update state and rollbacks, and the games it stores.
#
# cli.py runs it in a link session; update/client.py shares the update state's words.
import time

from tafel import wire
from tafel.names import shown

from ..exits import Exit
from ..lang import count as count_text
from ..lang import say as say_text
from . import export, storage_notes
from .export_state import DeviceState


def _when(epoch):
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(epoch)) if epoch else say_text("date_unknown")


def _line(label, text):
    # "device   fake-0001 (...)": the label's column is 9 wide in both languages
    print("%-8s %s" % (say_text(label), text))


def show(link):
    if link.hello.get("mode") == wire.RECOVERY:  # its flash does not show its games: no store to ask
        from ..rescue.link import print_recovery_info

        return print_recovery_info(link)
    h, info = link.hello, link.info()
    games = link.games()
    state = DeviceState(h["id"])
    _line("l_device", say_text("device_line", h["id"], h["fw"], h["proto"], h["window"], h["chunk"]))
    _line("l_flash", say_text("flash_line", info["free_kb"], info["total_kb"], info["flash"]))
    running = say_text("game_running", info["running"]) if info["running"] else ""
    _line("l_games", say_text("games_line", info["games"], running, info["next_id"]))
    if info["clock_set"]:
        _line("l_clock", say_text("clock_line", export.iso(info["clock"])[:19].replace("T", " "),
                                  info["clock"] - int(time.time())))
    else:
        _line("l_clock", say_text("clock_unset"))
    _line("l_update", update_state(info))
    for rec in info["rollbacks"]:
        _line("l_rollback", say_text("rollback_line", rec["version"], rollback_when(rec["at"]), rollback_why(rec)))
    for note in info["storage_report"]:
        print(say_text("flash_check", storage_notes.say(note)))
    cursor, spool = state.cursor(), state.spooled()
    _line("l_exported", say_text("exported_cursor", cursor) if cursor else say_text("exported_never"))
    if spool:
        print(" " * 9 + say_text("export_cut_short", len(spool[0])))
    if games:
        _games_table(games)
    return Exit.OK


def _game_state(g):
    leaders = " & ".join(shown(w) for w in g["winners"])
    if g.get("ended_early"):  # nobody won by the rule: who led is said as such (tafel history agrees)
        text = say_text("state_ended_led", leaders) if leaders else say_text("state_ended")
    elif leaders:
        text = say_text("state_won_by", leaders)
    else:
        text = say_text("state_finished" if g["finished"] else "state_live" if g["live"] else "state_open")
    flags = [say_text(key) for key, on in (("flag_exported", g["exported"]), ("flag_damaged", g["damaged"])) if on]
    return ", ".join([text] + flags)


def _games_table(games):
    # Every name whole: the players' column is as wide as its longest list (a cut at a fixed
    # width once showed "Jürgen, Özlem, Anna & Ben, K" for Käthe).
    rows = [(str(g["id"]), _when(g["created"]), variant_name(g["variant"]), str(g["target"]),
             str(g["rounds"]), ", ".join(shown(p) for p in g["players"]), _game_state(g)) for g in games]
    head = tuple(say_text(k) for k in ("h_id", "h_created", "h_variant", "h_target", "h_rounds", "h_players",
                                       "h_state"))
    widths = [max(len(row[i]) for row in [head] + rows) for i in range(7)]
    right = (True, False, False, True, True, False, False)
    for row in [head] + rows:
        cells = [cell.rjust(w) if r else cell.ljust(w) for cell, w, r in zip(row, widths, right)]
        print("  ".join(cells).rstrip())


def variant_name(variant):
    """A variant's name in the current language (the device's names: UNO, Minuspunkte, Challenge in German)."""
    try:
        return say_text("name_" + variant)
    except KeyError:
        return variant


# INFO's update state (docs/protocol.md): 0 confirmed, 1 on trial, 2 on probation
CONFIRMED, ON_TRIAL, PROBATION = 0, 1, 2


def update_state(info):
    """The running version's update state in words: on trial (which boot, how long still to run), ..."""
    fw = info["firmware"]
    if info["state"] == ON_TRIAL:
        return say_text("on_trial", fw, info["tries"], info["tries_max"], -(-info["confirm_left_ms"] // 1000))
    if info["state"] == PROBATION:
        return say_text("on_probation", fw)
    if info["bundle_id"]:
        return say_text("confirmed_bundle", fw, info["bundle_id"])
    return say_text("confirmed", fw)


def rollback_when(at):
    """'on 2026-12-02 10:31 UTC' of a rollback record's epoch seconds; 'at an unknown time' for 0."""
    return say_text("rollback_on", time.strftime("%Y-%m-%d %H:%M", time.gmtime(at))) if at else say_text(
        "rollback_unknown_time")


def rollback_why(rec, who=None):
    """Why the device gave a version up, from its rollback record (who: the version's name or 'it')."""
    count = rec["count"]
    who = who or say_text("it")
    if rec["why"] == "boots":
        return say_text("why_boots", who, count_text(count, "boot"))
    if rec["why"] == "crashes":
        return say_text("why_crashes", who, count_text(count, "time"))
    if rec["why"] == "key":
        return say_text("why_key")
    return say_text("why_other", rec["why"] or say_text("none_given"))
