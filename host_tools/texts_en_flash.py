# English texts of `tafel flash` (update/flash.py, flash_install.py, esp_image.py): the first install on a board.
#
# As texts_en.py (lang.say formats them). German in texts_de_flash.py, with the same keys.
TEXTS = {
    # the firmware image (flash.py, esp_image.py)
    "fl_no_firmware": "--firmware IMAGE.bin is needed (MicroPython for %s: %s from "
                      "https://micropython.org/download/%s/), or --skip-esptool if MicroPython is on the board",
    "fl_cannot_read": "cannot read %s: %s",
    "fl_not_image": "%s is no ESP32 firmware image (.bin from micropython.org, not .elf/.uf2/.zip)",
    "fl_unknown_mcu": "board %s has mcu %r; tafel flash knows %s",
    "fl_written_whole": "the image is written whole (%s): that erases the NVS partition; the first boot writes the "
                        "board profile's copy there again",
    "fl_nvs_kept": "NVS at 0x%x (%d KB) is kept",
    "fl_nothing_between": "nothing between them is written",
    "fl_written_apart": "bootloader, partition table and application written apart: %s",
    "fl_firmware": "firmware %s: %s",
    "img_no_image": "no ESP image at byte 0x%x",
    "img_cut_short": "the image at byte 0x%x is cut short",
    "img_no_table": "no partition table with an app partition at 0x%x",
    "img_bootloader": "the bootloader runs into the partition table",
    "img_padding": "bytes other than padding at 0x%x..0x%x",
    # the bundle (flash.py)
    "fl_no_boot_version": "firmware/bootsel.py has no line BOOT_VERSION = N",
    "fl_needs_key": "%s\n(no --bundle given: tafel flash builds one from this checkout and needs the signing key; "
                    "run tafel keygen once, or pass --bundle FILE)",
    "fl_built_here": "built from this checkout",
    "fl_refused": "the bundle is refused: %s",
    "fl_bundle": "bundle %s: version %s, %d files, signature and files checked",
    # --dry-run
    "fl_dry_esptool": "# 1. MicroPython (esptool)",
    "fl_dry_tafel": "# 2. Tafel %s (mpremote; on a board without a Tafel app: slot a; files unpacked to a temporary "
                    "folder)",
    "fl_dry_probe": "<probe: the pointer, free flash, .mpy version>",
    "fl_dry_then": "# then Ctrl-D at the REPL (soft reboot) and the link handshake: tafel info --port %s",
    # esptool and mpremote on the board (flash.py, flash_install.py)
    "fl_esptool_failed": "esptool failed on %s (exit status %d): %s\nNothing was installed. If it could not connect, "
                         "hold the board's BOOT button while esptool says 'Connecting...', and check the port and "
                         "the cable (docs/flashing.md).",
    "fl_no_output": "no output",
    "fl_waiting": "waiting for MicroPython's REPL on %s ...",
    "fl_no_micropython": " (is MicroPython on it? run without --skip-esptool)",
    "fl_runs_tafel": "the board runs Tafel %s already: update it with `tafel update BUNDLE` (signed, keeps games), "
                     "or pass --force to install this bundle beside it",
    "fl_on_trial": "the installed version %s is on trial after an update, its watchdog running (it would reset the "
                   "board in the middle of the install): let it run 10 minutes first, or hold 0 while you power it "
                   "on to go back to the version before",
    "fl_mpy": "the bundle holds .mpy version %d, the board's MicroPython imports %d: flash MicroPython 1.22 or newer "
              "(or build with the matching mpy-cross)",
    "fl_no_room": "not enough free flash: %d KB needed, %d KB free",
    "fl_installing": "installing %s into /app/%s",
    "fl_no_pointer": "the pointer /app/current was not written",
    "fl_installed": "installed %s: %d files in /app/%s%s and %d at the root (%d copied), checked against the "
                    "manifest%s (%.1f s)",
    "fl_in_image": " (%d more in the firmware image)",
    "fl_removed": ", %d left-over files removed",
    "fl_no_answer": "installed, but after the reboot %s (see docs/flashing.md, 'If it goes wrong')",
    "fl_answers": "the app answers version %s",
    "fl_no_app": "no Tafel app answered",
    "fl_restarted": "the board restarted and runs Tafel %s",
    "fl_mpremote_slow": "mpremote did not finish on %s in %d s (the board stopped answering?)",
    "fl_mpremote_failed": "mpremote failed on %s: %s",
    "fl_exit_status": "exit status %d",
    "fl_not_micropython": "the board answered, but not as MicroPython does: %s",
    "fl_differs": "%s differs or is missing",
    "fl_mismatch": "the files on the board do not match: %s%s (run tafel flash again)",
}
