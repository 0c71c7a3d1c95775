# German texts of `tafel flash` (the first install on a board); keys as in texts_en_flash.py.
#
# Die Platine (the board), das Image (MicroPython's firmware file), das Paket (the bundle), der Platz
# (an application slot, /app/a or /app/b).
TEXTS = {
    # the firmware image (flash.py, esp_image.py)
    "fl_no_firmware": "--firmware IMAGE.bin wird gebraucht (MicroPython für %s: %s von "
                      "https://micropython.org/download/%s/), oder --skip-esptool, wenn MicroPython schon auf der "
                      "Platine ist",
    "fl_cannot_read": "kann %s nicht lesen: %s",
    "fl_not_image": "%s ist kein ESP32-Firmware-Image (.bin von micropython.org, nicht .elf/.uf2/.zip)",
    "fl_unknown_mcu": "Platine %s hat mcu %r; tafel flash kennt %s",
    "fl_written_whole": "das Image wird als Ganzes geschrieben (%s): das löscht die NVS-Partition; der erste Start "
                        "schreibt die Kopie des Platinenprofils wieder hinein",
    "fl_nvs_kept": "NVS bei 0x%x (%d KB) bleibt erhalten",
    "fl_nothing_between": "dazwischen wird nichts geschrieben",
    "fl_written_apart": "Bootloader, Partitionstabelle und Anwendung einzeln geschrieben: %s",
    "fl_firmware": "Firmware %s: %s",
    "img_no_image": "kein ESP-Image bei Byte 0x%x",
    "img_cut_short": "das Image bei Byte 0x%x ist abgeschnitten",
    "img_no_table": "keine Partitionstabelle mit einer App-Partition bei 0x%x",
    "img_bootloader": "der Bootloader reicht in die Partitionstabelle",
    "img_padding": "andere Bytes als Füllung bei 0x%x..0x%x",
    # the bundle (flash.py)
    "fl_no_boot_version": "firmware/bootsel.py hat keine Zeile BOOT_VERSION = N",
    "fl_needs_key": "%s\n(kein --bundle angegeben: tafel flash baut eines aus diesem Checkout und braucht dafür den "
                    "Signierschlüssel; einmal tafel keygen ausführen oder --bundle DATEI angeben)",
    "fl_built_here": "aus diesem Checkout gebaut",
    "fl_refused": "das Paket wird abgelehnt: %s",
    "fl_bundle": "Paket %s: Version %s, %d Dateien, Signatur und Dateien geprüft",
    # --dry-run
    "fl_dry_esptool": "# 1. MicroPython (esptool)",
    "fl_dry_tafel": "# 2. Tafel %s (mpremote; auf einer Platine ohne Tafel-App: Platz a; Dateien in einen "
                    "temporären Ordner entpackt)",
    "fl_dry_probe": "<Probe: der Zeiger, freier Flash, .mpy-Version>",
    "fl_dry_then": "# dann Strg-D an der REPL (Soft-Reset) und die Begrüßung über die Verbindung: tafel info --port %s",
    # esptool and mpremote on the board (flash.py, flash_install.py)
    "fl_esptool_failed": "esptool ist an %s gescheitert (Exit-Status %d): %s\nEs wurde nichts installiert. Konnte es "
                         "sich nicht verbinden, die BOOT-Taste der Platine halten, während esptool 'Connecting...' "
                         "sagt, und Port und Kabel prüfen (docs/flashing.md).",
    "fl_no_output": "keine Ausgabe",
    "fl_waiting": "warte auf die REPL von MicroPython an %s ...",
    "fl_no_micropython": " (ist MicroPython darauf? ohne --skip-esptool ausführen)",
    "fl_runs_tafel": "auf der Platine läuft schon Tafel %s: mit `tafel update PAKET` aktualisieren (signiert, "
                     "Spiele bleiben), oder mit --force dieses Paket daneben installieren",
    "fl_on_trial": "die installierte Version %s ist nach einem Update in der Probezeit, ihr Watchdog läuft (er würde "
                   "die Platine mitten in der Installation neu starten): sie erst 10 Minuten laufen lassen, oder "
                   "beim Einschalten 0 halten, um zur vorigen Version zurückzukehren",
    "fl_mpy": "das Paket enthält .mpy-Version %d, das MicroPython der Platine lädt %d: MicroPython 1.22 oder neuer "
              "flashen (oder mit dem passenden mpy-cross bauen)",
    "fl_no_room": "nicht genug freier Flash: %d KB nötig, %d KB frei",
    "fl_installing": "installiere %s nach /app/%s",
    "fl_no_pointer": "der Zeiger /app/current wurde nicht geschrieben",
    "fl_installed": "%s installiert: %d Dateien in /app/%s%s und %d im Wurzelverzeichnis (%d kopiert), gegen das "
                    "Manifest geprüft%s (%.1f s)",
    "fl_in_image": " (%d weitere im Firmware-Image)",
    "fl_removed": ", %d übrig gebliebene Dateien entfernt",
    "fl_no_answer": "installiert, aber nach dem Neustart %s (siehe docs/flashing.md, 'If it goes wrong')",
    "fl_answers": "antwortet die App mit Version %s",
    "fl_no_app": "hat keine Tafel-App geantwortet",
    "fl_restarted": "die Platine ist neu gestartet und läuft mit Tafel %s",
    "fl_mpremote_slow": "mpremote wurde an %s nicht in %d s fertig (antwortet die Platine nicht mehr?)",
    "fl_mpremote_failed": "mpremote ist an %s gescheitert: %s",
    "fl_exit_status": "Exit-Status %d",
    "fl_not_micropython": "die Platine hat geantwortet, aber nicht wie MicroPython: %s",
    "fl_differs": "%s weicht ab oder fehlt",
    "fl_mismatch": "die Dateien auf der Platine stimmen nicht: %s%s (tafel flash noch einmal ausführen)",
}
