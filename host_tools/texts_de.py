# German texts of the laptop's commands (history, chart, report, info, export, points, errors); keys as in texts_en.py.
#
# A text is a %-format (host_tools/lang.py: say) or, for counts, a (singular, plural) pair
# (lang.count). The variants' names are the device's (firmware/ui/texts_de.py): UNO,
# Minuspunkte, Challenge. The labels of `tafel info` fit its 8 columns.
TEXTS = {
    # counted things
    "game": ("Spiel", "Spiele"),
    "round": ("Runde", "Runden"),
    "evening": ("Abend", "Abende"),
    "player": ("Spieler", "Spieler"),
    "device": ("Gerät", "Geräte"),
    "boot": ("Start", "Starts"),
    "time": ("Mal", "Mal"),
    # the variants
    "name_standard": "UNO",
    "name_penalty": "Minuspunkte",
    "name_challenge": "Challenge",
    "variant_standard": "UNO (Standard): der Sieger einer Runde bekommt die Punkte der anderen Hände, wer "
                        "zuerst das Ziel erreicht, gewinnt. Mehr Punkte pro Runde ist besser.",
    "variant_penalty": "Minuspunkte: jeder schreibt sich seine eigene Hand an; erreicht jemand das Ziel, "
                       "gewinnt der niedrigste Stand. Weniger Punkte pro Runde ist besser.",
    "variant_challenge": "Challenge: wie Minuspunkte, aber wer das Ziel erreicht, scheidet aus, und wer als "
                         "Letzter übrig bleibt, gewinnt. Weniger Punkte pro Runde ist besser.",
    # tafel history
    "imported": "%s: %d neu, %d aktualisiert, %d schon vorhanden (Gerät %s)",
    "flash_check_of": "%s: Flash-Prüfung des Geräts: %s",
    "history_holds": "Verlauf: %s von %s in %s",
    "unproven": "Verlauf: %s ausgelassen, ihre Aufzeichnungen belegen sie nicht (von einem tafel vor der "
                "Prüfung):",
    "and_more": "  ... und %d weitere",
    "unproven_fix": "  ihre Exportdateien noch einmal einlesen (tafel history import DATEI), um sie zu ersetzen",
    "no_games_yet": "noch keine Spiele in %s; hinzufügen mit: tafel history import DATEI...",
    "no_games_evening": "keine Spiele am Abend des %s in %s; hinzufügen mit: tafel history import DATEI...",
    "no_such_evening": "keine Spiele am Abend des %s; Abende: %s",
    "summary": "%s (%s), %s, %s",
    "n_finished": "%d zu Ende gespielt",
    "n_ended_early": ", %d vorzeitig beendet",
    "col_player": "Spieler",
    "col_games": "Spiele",
    "col_wins": "Siege",
    "col_win_rate": "Siegquote",
    "col_points_round": "Punkte/Runde",
    "col_comeback": "beste Aufholjagd",
    "comeback_in": "%d (Spiel %s)",
    "legend_wins": "Siege: Spiele, die durch Erreichen des Ziels gewonnen wurden; ein vorzeitig beendetes "
                   "Spiel gewinnt niemand",
    "legend_comeback": "beste Aufholjagd: der größte Rückstand auf den Führenden, den der Spieler in einem "
                       "gewonnenen Spiel aufgeholt hat",
    "won_by": "Gewonnen von %s",
    "ended_early": "Vorzeitig beendet",
    "ended_early_leading": "Vorzeitig beendet, %s vorn",
    "not_finished": "Nicht zu Ende gespielt",
    "wrote_chart": "%s geschrieben (Spiel %s:%d, %s)",
    "wrote_report": "%s geschrieben (%s am Abend des %s)",
    # the history database
    "db_schema": "%s hat das Verlaufsschema %s; dieses tafel kennt %d",
    "db_unusable": "%s taugt nicht als Verlaufsdatenbank: %s",
    "import_refused": "%s: Gerät %s, %s; abgelehnt, nichts eingelesen",
    "game_ref": "ein Spiel ist NR oder GERÄT:NR (z.B. 7 oder a1b2c3:7), nicht '%s'",
    "game_left_out": "Spiel %s:%d ist in %s, aber ausgelassen: %s; seinen Export noch einmal einlesen "
                     "(tafel history import DATEI), um es zu ersetzen",
    "no_game": "kein Spiel %s in %s",
    "game_several": "Spiel %d gibt es von mehreren Geräten (%s): welches? z.B. %s:%d",
    # tafel chart
    "chart_title": "Spiel %d: %s bis %d",
    "chart_won_by": "gewonnen von %s",
    "chart_ended_early": "vorzeitig beendet, %s vorn",
    "chart_won": " (Sieg)",
    "chart_target": "Ziel %d",
    "chart_round": "Runde",
    "chart_total": "Stand",
    "need_matplotlib": "Diagramme brauchen matplotlib, das Tafel als Extra installiert: pip install "
                       "'tafel[charts]' (oder pip install matplotlib)",
    # tafel report
    "report_title": "Tafel: der Abend des %s",
    "players_of": "Spieler: %s",
    "game_heading": "Spiel %s (Gerät %s)",
    "variant_to": "%s bis %s",
    "clock_not_set": "Uhr nicht gestellt",
    "col_round": "Runde",
    "col_winner": "Sieger",
    "col_total": "Stand",
    "out": "raus",
    "chart_alt": "Punkteverlauf von Spiel %s",
    # Spiele, die der Hub eines Clubabends gespeichert hat (history/clubs.py)
    "club_mark_evening": "Clubabend von %s am %s: %s an %s%s",
    "club_mark_round_one": "; Turnierrunde %d",
    "club_mark_rounds": "; Turnierrunden %d bis %d",
    "club_mark_table": "%s (Club %s)",
    "club_mark_game_round": ", Turnierrunde %d",
    # export files
    "not_export": "%s ist kein Tafel-Export (kein \"format\": \"%s\")",
    "export_version": "%s ist ein Tafel-Export der Version %r; dieses tafel liest Version %d",
    "export_no_device": "%s nennt keine Gerätekennung",
    "export_no_games": "%s hat keine Liste von Spielen",
    "export_bad_game": "%s enthält ein fehlerhaftes Spiel (Nr. %r)",
    "cannot_read": "kann %s nicht lesen: %s",
    "no_such_file": "diese Datei gibt es nicht",
    "is_folder": "das ist ein Ordner",
    "no_permission": "keine Leseberechtigung",
    "not_utf8": "das ist kein UTF-8-Text",
    "not_json": "das ist kein JSON",
    "current_folder": "den aktuellen Ordner (%s)",
    "out_is_folder": "kann den Export nicht nach %s schreiben: das ist ein Ordner; einen Dateinamen angeben, "
                     "z.B. -o %s",
    "out_no_folder": "kann den Export nicht nach %s schreiben: es gibt keinen Ordner %s",
    "out_cannot_write": "kann den Export nicht nach %s schreiben: %s",
    "csv_separator": ";",
    "csv_device": "Gerät", "csv_game": "Spiel", "csv_created": "begonnen", "csv_variant": "Variante",
    "csv_target": "Ziel", "csv_round": "Runde", "csv_seat": "Platz", "csv_player": "Spieler",
    "csv_winner": "Sieger", "csv_hand": "Hand", "csv_score": "Punkte", "csv_total": "Stand",
    # tafel export
    "xlsx_rounds": "Runden", "xlsx_games": "Spiele", "xlsx_totals": "Stand",
    "xlsx_needs_openpyxl": "eine .xlsx braucht openpyxl: pip install 'tafel[excel]' (oder CSV für Excel: --excel)",
    "excel_is_csv": "--excel schreibt CSV: --format json weglassen oder eine .csv-Datei nennen",
    "nothing_asked": "; das Gerät wurde nichts gefragt",
    "continuing": "setze den abgebrochenen Export fort (%d Spiele behalten)",
    "no_earlier_export": "noch kein Export von %s auf diesem Laptop: exportiere alle Spiele",
    "export_cut": "%s. Die %d vollständig angekommenen Spiele bleiben auf diesem Laptop; weiter mit "
                  "`tafel export --since`.",
    "export_cut_one": "%s. Das %d vollständig angekommene Spiel bleibt auf diesem Laptop; weiter mit "
                      "`tafel export --since`.",
    "device_flash_check": "Flash-Prüfung des Geräts: %s",
    "the_export": "den Export",
    "cannot_write_kept": "kann %s nicht schreiben (%s). Die %s bleiben auf diesem Laptop: Platz schaffen und "
                         "`tafel export --since` aufrufen, um sie zu schreiben.",
    "mark_failed": "%s ist mit %s geschrieben, aber sie auf dem Gerät als exportiert zu markieren, ging schief "
                   "(%s). Nichts ist verloren: die Datei ist vollständig; `tafel export --since` markiert sie "
                   "und bringt sie womöglich noch einmal.",
    "exported_line": "%s: %s (%s) von %s, %d Journal-Bytes in %.1f s (%.0f Bytes/s auf der Leitung); Cursor %s",
    "interrupted": "abgebrochen",
    # tafel info
    "l_device": "Gerät",
    "l_flash": "Flash",
    "l_games": "Spiele",
    "l_clock": "Uhr",
    "l_update": "Update",
    "l_rollback": "zurück",
    "l_exported": "Export",
    "device_line": "%s (Firmware %s, Protokoll %d, Fenster %d, Block %d)",
    "flash_line": "%d KB frei von %d KB (%s)",
    "games_line": "%d gespeichert%s; das nächste bekommt Nr. %d",
    "game_running": ", Spiel %d läuft",
    "clock_line": "%s UTC (%+d s gegenüber diesem Laptop)",
    "clock_unset": "seit dem Einschalten nicht gestellt: jetzt begonnene Spiele haben kein Datum "
                   "(stellen: tafel clock)",
    "rollback_line": "%s aufgegeben %s: %s",
    "flash_check": "Flash-Prüfung: %s",
    "exported_cursor": "zuletzt bis Cursor %s",
    "exported_never": "noch nie von diesem Laptop",
    "export_cut_short": "ein Export brach ab, %d Spiele behalten: tafel export --since setzt ihn fort",
    "h_id": "Nr.", "h_created": "begonnen", "h_variant": "Variante", "h_target": "Ziel", "h_rounds": "Runden",
    "h_players": "Spieler", "h_state": "Stand",
    "state_won_by": "gewonnen von %s",
    "state_finished": "beendet",
    "state_ended": "vorzeitig beendet",
    "state_ended_led": "vorzeitig beendet, %s vorn",
    "state_live": "wird gespielt",
    "state_open": "offen",
    "flag_exported": "exportiert",
    "flag_damaged": "beschädigt",
    "date_unknown": "Datum unbekannt",
    "on_trial": "%s auf Probe: Start %d von %d, bestätigt sich nach %d s weiterem Lauf",
    "on_probation": "%s in Bewährung: bestätigt, aber ein Absturz in den ersten Minuten nimmt es noch zurück",
    "confirmed_bundle": "%s bestätigt, Paket %s",
    "confirmed": "%s bestätigt (Paketkennung unbekannt)",
    "rollback_on": "am %s UTC",
    "rollback_unknown_time": "zu unbekannter Zeit",
    "it": "sie",
    "why_boots": "%s hat sich in %s nie bestätigt",
    "why_crashes": "%s ist kurz nach dem Update %s abgestürzt",
    "why_key": "die Wiederherstellungstaste war beim Einschalten gedrückt",
    "why_other": "Grund des Geräts: %s",
    "none_given": "keiner angegeben",
    # the device's storage report (link/storage_notes.py): after "Spiel 7", or about the flash ({}: the detail)
    "note_game": "Spiel %s %s",
    "note_game_damaged": "hatte beschädigte Aufzeichnungen: beiseitegelegt, ihre Bytes bleiben und werden "
                         "exportiert",
    "note_game_unreadable": "ist nicht lesbar: seine Bytes bleiben und werden exportiert",
    "note_game_lost": "steht in der Liste, aber sein Journal fehlt in beiden Kopien",
    "note_rounds_missing": "hat weniger Runden, als das Gerät als gespeichert bestätigt hatte: den Rest auf "
                           "dem Zettel oder in der Kopie eines anderen Laptops nachsehen",
    "note_game_mended": "war in einer Kopie beschädigt und wurde aus der zweiten wiederhergestellt: nichts "
                        "verloren",
    "note_game_rebuilt": "aus seiner zweiten Kopie wiederhergestellt",
    "note_copy_mended": "hatte eine Kopie, die nachhing (Stromausfall zwischen den zwei Schreibvorgängen): "
                        "wieder vollständig",
    "note_torn_tail_repaired": "hatte ein vom Stromausfall abgeschnittenes Speichern: entfernt, nichts "
                               "Bestätigtes ging verloren",
    "note_game_set_aside": "gibt es nur noch als beiseitegelegte Bytes: tafel export holt sie",
    "note_index_damaged": "das Verzeichnis der Spiele war beschädigt ({}); es wurde aus den Journalen neu "
                          "aufgebaut",
    "note_index_rebuilt": "{} Einträge des Verzeichnisses aus den Journalen neu aufgebaut",
    "note_settings_damaged": "die Einstellungen waren beschädigt: es gelten die Vorgaben (die Bytes bleiben)",
    "note_roster_damaged": "die Namensliste war beschädigt: sie ist jetzt leer (die Bytes bleiben)",
    "note_flash_low": "der Flash ist fast voll: {} KB frei",
    "note_flash_full": "der Flash ist voll ({} KB frei): neue Spiele werden abgelehnt",
    "note_flash_formatted": "der Flash war leer oder sein erstes Formatieren wurde abgebrochen; er wurde "
                            "formatiert",
    "note_more": "{} weitere Hinweise passten nicht mehr",
    # the link (link/client.py, stream.py, errors.py)
    "port_write": "kann nicht auf den Anschluss schreiben: %s",
    "port_gone": "der Anschluss ist weg: %s",
    "other_protocol": "das Gerät spricht Protokoll %r; dieses tafel spricht %d (eins von beiden aktualisieren)",
    "at_repl": "das Gerät steht am MicroPython-Prompt: die Tafel-App läuft nicht, MicroPythons REPL hat "
               "geantwortet (Strg-C, mpremote oder ein Fehler hat die App angehalten). Das Gerät neu starten: "
               "Reset-Knopf drücken oder neu einstecken, oder am Prompt Strg-D drücken (mpremote connect PORT "
               "repl, dann Strg-D)",
    "garbled_hello": "eine verstümmelte Antwort auf die Begrüßung, %d Mal: %s (Leitung oder Kabel gestört?)",
    "no_hello": "keine Antwort auf die Begrüßung",
    "damaged_hello": "eine beschädigte Begrüßungszeile",
    "it_said": " (es sagte %r)",
    "stopped_answering": "das Gerät antwortet nicht mehr (%s)",
    "went_silent": "das Gerät verstummte mitten in %s",
    "mid_stream": "der Übertragung",
    "mid_flash_read": "dem Lesen des Flash",
    "mid_export": "dem Export",
    "noisy_line": "die Leitung zum Gerät ist gestört: %d von %d Blöcken kamen beschädigt an (%d %%); ein "
                  "anderes Kabel oder einen anderen USB-Anschluss versuchen",
    "device_says": "das Gerät meldet %s",
    "on_port": "%s an %s",
    "the_port": "dem Anschluss",
    # tafel points
    "total": "Summe",
}
