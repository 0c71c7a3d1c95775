# English texts of the device tools (port search, card names, roster, clock, update).
#
# As texts_en.py (lang.say formats them); its keys and these are one catalogue (lang.py joins
# them), so no key is in both. German in texts_de_tools.py, with the same keys.
TEXTS = {
    # the port search (link/ports.py)
    "port_busy": "port %s is in use by another tafel command (%s): wait until it is done, or end it",
    "port_other_program": "port %s is in use by another program (a serial monitor, mpremote, an IDE?): close it, "
                          "then try again",
    "pid": "pid %s",
    "pid_unknown": "pid unknown",
    "hint_linux": "On Linux: your user needs the serial group to open the port: "
                  "sudo usermod -aG dialout $USER (uucp on Arch), then log out and in again. "
                  "ModemManager probes a freshly plugged /dev/ttyACM* for a few seconds: wait and retry, "
                  "or stop it (sudo systemctl stop ModemManager).",
    "hint_macos": "On macOS: use the /dev/cu.* port, not /dev/tty.* (which waits for a carrier signal). "
                  "CP210x and CH340 boards may need their vendor's driver on older macOS.",
    "hint_windows": "On Windows: the port is COMn (Device Manager, Ports (COM & LPT)); close other programs "
                    "that hold it (a serial monitor, Thonny, an IDE). CP210x and CH340 boards need their driver.",
    "hint_other": "Name the port with --port.",
    "simulator_pid": "Tafel simulator, pid %d",
    "cannot_open": "cannot open %s (from %s): %s\n%s",
    "app_running": "Is the Tafel app running (not stopped at the REPL)?",
    "no_answer_on": "no Tafel answered on %s (from %s): %s",
    "ports_seen": "; serial ports seen: %s (use --port if one of them is it)",
    "no_tafel_found": "no Tafel found: no USB serial port of an ESP32 bridge (Espressif, CP210x, CH340, FTDI) "
                      "and no simulator running (tafel sim)%s. Plug the device in with a data cable, or name "
                      "the port with --port or %s.\n%s",
    "no_app_answered": "no Tafel app answered on %s",
    "none_answered": "no Tafel answered on %s.\n%s\n%s",
    "port_of_device": "%s (device %s)",
    "several_answered": "several Tafel devices answered: %s. Choose one with --port or %s.",
    "no_permission_to": " (no permission)",
    # card names (tafel points, tafel rules): tafel.errors.CardError's codes as "card_" + code
    "card_colour_type": "a colour is text, not %r",
    "card_colour": "unknown colour '%s'",
    "card_number": "no card has the number '%s': numbers run from 0 to 9",
    "card_rank": "unknown rank '%s'",
    "card_card_type": "a card is text, not %r",
    "card_rank_in": "unknown rank '%s' in '%s'",
    "card_black": "'%s' is a black card and has no colour",
    "card_not_black": "'%s' is no black card: say its colour, e.g. 'red %s'",
    "card_needs_colour": "'%s' needs a colour, e.g. 'red %s'",
    "card_number_in": "'%s' is no card: numbers run from 0 to 9, not %s",
    "card_empty": "a card is empty: say e.g. 'red 7' or 'wild'",
    "card_colour_only": "'%s' is a colour; a card needs a rank too, e.g. '%s 7'",
    "card_black_only": "'%s' is a colour; a card needs a rank too, e.g. '%s +4'",
    "card_colour_in": "unknown colour '%s' in '%s'",
    "card_card": "unknown card '%s'",
    "card_word_in": "unknown word '%s' in '%s'",
    "card_points": "points for '%s' must be a whole number from 0 to %d",
    "card_deck": "a deck has 108 or 112 cards, not %r",
    "card_hand_type": "a hand is a list of cards, not one text %r",
    "value_form": "a value is RANK=POINTS, e.g. 'wild=40', not '%s'",
    "value_points": "points for '%s' must be a whole number, not '%s'",
    # tafel roster, tafel clock (link/roster_cli.py)
    "roster_blank": "name %d is blank: give names, or empty the roster with `tafel roster clear`",
    "roster_name": "name %d: %s",
    "name_long": "the name '%s' is longer than %d letters",
    "name_bad": "the name '%s' has a control character (%s) at position %d: only printable characters",
    "name_undrawable": "the name '%s' has '%s' at position %d, which the device cannot show: only Latin letters, digits and punctuation",
    "roster_folded": "'%s' is sent as '%s': the device shows these letters without their marks",
    "roster_too_many": "%d names: the device's roster holds at most %d; push %d or fewer",
    "roster_no_names": "no names to push: give them as arguments or with --file (to empty the roster: "
                       "tafel roster clear)",
    "roster_unsent": "%s. Nothing was sent; the roster stays as it is.",
    "roster_stored": "roster: %d names stored on %s",
    "roster_emptied": "roster of %s emptied",
    "clock_range": "this laptop's clock says %d s since 1970 (%s); the device takes 1 to %d (up to %s). "
                   "Set this laptop's clock right, then run tafel clock again.",
    "clock_set_unset": "clock of %s set to %s UTC; it was not set",
    "clock_set": "clock of %s set to %s UTC; it was %s UTC (%+d s)",
    "time_out_of_range": "a time out of range",
    # tafel update (update/client.py); the device's refusals themselves are texts_*_update.py's ("rf_")
    "up_forgot": "the device forgot the transfer (restarted?): run tafel update again",
    "up_stuck": "the transfer makes no progress (%s)",
    "up_silence": "silence",
    "up_bad_blocks": "bad blocks",
    "up_block": "the device takes blocks of %d bytes at most; this tafel sends %d",
    "up_cannot_send": "cannot send %s: %s (%s)",
    "up_bar": "update %s",
    "up_device": "device %s: %s",
    "up_this_bundle": "the device runs %s already (this very bundle)",
    "up_waiting_trial": "it is on trial: waiting for it to confirm itself",
    "up_sending": "sending %s (%d files)",
    "up_staged": "staged and checked %s: %s bytes sent, %d of %d files were on the device already (%.1f s)",
    "up_restarts": "the device restarts into %s on trial; waiting until it confirms itself (at most %d s)",
    "up_same_hint": " To install the same version again, build the bundle with --allow-downgrade.",
    "up_refused": "the device refused the update: %s%s (%s)",
    "up_again": "%s (run tafel update again: it continues where it stopped)",
    "up_was_rolled_back": "%s was rolled back on this device %s (%s)",
    "up_rolled_back_force": "%s; send it again with --force (rolled_back)",
    "up_rolled_back_again": "%s; sending it again (--force)",
    "up_other_content": "built from other content (bundle %s, this one %s)",
    "up_unknown_bundle": "from a bundle this tafel cannot tell (the device names none)",
    "up_other_build": "the device runs %s already, %s; to install this bundle over it send it with --force (the "
                      "device takes it only if it was built with --allow-downgrade) (other_build)",
    "up_anyway": "the device runs %s already, %s; sending it anyway (--force)",
    "up_not_sent": "not sent: %s It is on boot %d of %d and confirms itself after %d s more of running. (on_trial)",
    "up_stopped_waiting": "stopped waiting: the device goes on with the trial of %s by itself; tafel info tells "
                          "how it went",
    "up_confirmed": "the device restarted and runs %s; it confirmed itself healthy%s",
    "up_probation": " (on probation: a crash in its first minutes still rolls it back)",
    "up_no_record": "%s started, then the device came back with %s without a record of why",
    "up_rolled_back": "the update was rolled back: %s; the device runs %s again (games and settings are untouched)",
    "up_advice": "If %s fails, the device goes back to %s by itself after %d boots: check with tafel info in a few "
                 "minutes. If it stays dark or keeps restarting, switch it off and hold %s while switching it on: "
                 "it goes back to %s (docs/updates.md, \"Trial boots and rollback\").",
    "up_still_trial": "%s is still on trial after %d s (boot %d of %d, it confirms itself after %d s more of "
                      "running). %s",
    "up_not_switched": "the device still runs %s %d s after switching to %s and records no rollback. %s",
    "up_silent": "the device has not answered for %d s (it was switched to %s %d s ago; a whole trial takes at "
                 "most %d s). %s",
    # the trial's progress (update/trial.py)
    "tr_boot": "on trial: boot %d of %d",
    "tr_confirms_in": ", confirms in %d s",
    "tr_restart_into": "waiting for the device to restart into %s",
    "tr_come_back": "waiting for the device to come back",
}
