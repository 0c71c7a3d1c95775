# German texts of the device tools (port search, card names, roster, clock, update).
#
# As texts_de.py (lang.say formats them); its keys and these are one catalogue (lang.py joins
# them), so no key is in both. English in texts_en_tools.py, with the same keys.
TEXTS = {
    # the port search (link/ports.py)
    "port_busy": "Port %s wird von einem anderen tafel-Befehl benutzt (%s): warten, bis er fertig ist, "
                 "oder ihn beenden",
    "port_other_program": "Port %s wird von einem anderen Programm benutzt (ein serieller Monitor, mpremote, eine "
                          "IDE?): es schließen, dann noch einmal versuchen",
    "pid": "PID %s",
    "pid_unknown": "PID unbekannt",
    "hint_linux": "Unter Linux: der Benutzer braucht die Gruppe für serielle Ports: "
                  "sudo usermod -aG dialout $USER (uucp unter Arch), dann ab- und wieder anmelden. "
                  "ModemManager prüft ein frisch eingestecktes /dev/ttyACM* einige Sekunden lang: warten und "
                  "noch einmal versuchen oder ihn anhalten (sudo systemctl stop ModemManager).",
    "hint_macos": "Unter macOS: den Port /dev/cu.* nehmen, nicht /dev/tty.* (der auf ein Trägersignal wartet). "
                  "Platinen mit CP210x und CH340 brauchen auf älterem macOS vielleicht den Treiber des Herstellers.",
    "hint_windows": "Unter Windows: der Port heißt COMn (Geräte-Manager, Anschlüsse (COM & LPT)); andere "
                    "Programme schließen, die ihn halten (ein serieller Monitor, Thonny, eine IDE). Platinen mit "
                    "CP210x und CH340 brauchen ihren Treiber.",
    "hint_other": "Den Port mit --port angeben.",
    "simulator_pid": "Tafel-Simulator, PID %d",
    "cannot_open": "%s lässt sich nicht öffnen (aus %s): %s\n%s",
    "app_running": "Läuft die Tafel-App (nicht an der REPL angehalten)?",
    "no_answer_on": "keine Tafel hat auf %s geantwortet (aus %s): %s",
    "ports_seen": "; gesehene serielle Ports: %s (mit --port angeben, wenn es einer davon ist)",
    "no_tafel_found": "keine Tafel gefunden: kein USB-Port einer ESP32-Brücke (Espressif, CP210x, CH340, FTDI) "
                      "und kein laufender Simulator (tafel sim)%s. Das Gerät mit einem Datenkabel anschließen "
                      "oder den Port mit --port oder %s angeben.\n%s",
    "no_app_answered": "keine Tafel-App hat geantwortet: %s",
    "none_answered": "keine Tafel hat geantwortet: %s.\n%s\n%s",
    "port_of_device": "%s (Gerät %s)",
    "several_answered": "mehrere Tafel-Geräte haben geantwortet: %s. Eines mit --port oder %s wählen.",
    "no_permission_to": " (keine Berechtigung)",
    # card names (tafel points, tafel rules): tafel.errors.CardError's codes as "card_" + code
    "card_colour_type": "eine Farbe ist Text, nicht %r",
    "card_colour": "unbekannte Farbe '%s'",
    "card_number": "keine Karte hat die Zahl '%s': die Zahlen gehen von 0 bis 9",
    "card_rank": "unbekannter Kartenwert '%s'",
    "card_card_type": "eine Karte ist Text, nicht %r",
    "card_rank_in": "unbekannter Kartenwert '%s' in '%s'",
    "card_black": "'%s' ist eine schwarze Karte und hat keine Farbe",
    "card_not_black": "'%s' ist keine schwarze Karte: ihre Farbe nennen, z.B. 'rot %s'",
    "card_needs_colour": "'%s' braucht eine Farbe, z.B. 'rot %s'",
    "card_number_in": "'%s' ist keine Karte: die Zahlen gehen von 0 bis 9, nicht %s",
    "card_empty": "eine Karte ist leer: z.B. 'rot 7' oder 'Joker' angeben",
    "card_colour_only": "'%s' ist eine Farbe; eine Karte braucht auch einen Wert, z.B. '%s 7'",
    "card_black_only": "'%s' ist eine Farbe; eine Karte braucht auch einen Wert, z.B. '%s +4'",
    "card_colour_in": "unbekannte Farbe '%s' in '%s'",
    "card_card": "unbekannte Karte '%s'",
    "card_word_in": "unbekanntes Wort '%s' in '%s'",
    "card_points": "Punkte für '%s' müssen eine ganze Zahl von 0 bis %d sein",
    "card_deck": "ein Stapel hat 108 oder 112 Karten, nicht %r",
    "card_hand_type": "eine Hand ist eine Liste von Karten, nicht ein Text %r",
    "value_form": "ein Wert ist KARTE=PUNKTE, z.B. 'Joker=40', nicht '%s'",
    "value_points": "Punkte für '%s' müssen eine ganze Zahl sein, nicht '%s'",
    # tafel roster, tafel clock (link/roster_cli.py)
    "roster_blank": "Name %d ist leer: Namen angeben oder die Namensliste mit `tafel roster clear` leeren",
    "roster_name": "Name %d: %s",
    "name_long": "der Name '%s' ist länger als %d Zeichen",
    "name_bad": "der Name '%s' hat ein Steuerzeichen (%s) an Stelle %d: nur druckbare Zeichen",
    "name_undrawable": "der Name '%s' hat '%s' an Stelle %d, das das Gerät nicht zeigen kann: nur lateinische Buchstaben, Ziffern und Satzzeichen",
    "roster_folded": "'%s' wird als '%s' gesendet: das Gerät zeigt diese Buchstaben ohne ihre Zeichen",
    "roster_too_many": "%d Namen: die Namensliste des Geräts fasst höchstens %d; %d oder weniger senden",
    "roster_no_names": "keine Namen zum Senden: als Argumente oder mit --file angeben (die Namensliste "
                       "leeren: tafel roster clear)",
    "roster_unsent": "%s. Nichts gesendet; die Namensliste bleibt, wie sie ist.",
    "roster_stored": "Namensliste: %d Namen auf %s gespeichert",
    "roster_emptied": "Namensliste von %s geleert",
    "clock_range": "die Uhr dieses Laptops sagt %d s seit 1970 (%s); das Gerät nimmt 1 bis %d (bis %s). "
                   "Die Uhr dieses Laptops richtig stellen, dann tafel clock noch einmal.",
    "clock_set_unset": "Uhr von %s auf %s UTC gestellt; sie war nicht gestellt",
    "clock_set": "Uhr von %s auf %s UTC gestellt; sie stand auf %s UTC (%+d s)",
    "time_out_of_range": "eine Zeit außerhalb des Bereichs",
    # tafel update (update/client.py); the device's refusals themselves are texts_*_update.py's ("rf_")
    "up_forgot": "das Gerät hat die Übertragung vergessen (neu gestartet?): tafel update noch einmal ausführen",
    "up_stuck": "die Übertragung kommt nicht voran (%s)",
    "up_silence": "Stille",
    "up_bad_blocks": "beschädigte Blöcke",
    "up_block": "das Gerät nimmt Blöcke von höchstens %d Bytes; dieses tafel sendet %d",
    "up_cannot_send": "kann %s nicht senden: %s (%s)",
    "up_bar": "Update %s",
    "up_device": "Gerät %s: %s",
    "up_this_bundle": "das Gerät läuft schon mit %s (genau diesem Paket)",
    "up_waiting_trial": "es ist in der Probezeit: warten, bis es sich bestätigt",
    "up_sending": "sende %s (%d Dateien)",
    "up_staged": "%s bereitgelegt und geprüft: %s Bytes gesendet, %d von %d Dateien waren schon auf dem Gerät "
                 "(%.1f s)",
    "up_restarts": "das Gerät startet %s zur Probe neu; warten, bis es sich bestätigt (höchstens %d s)",
    "up_same_hint": " Um dieselbe Version noch einmal aufzuspielen, das Paket mit --allow-downgrade bauen.",
    "up_refused": "das Gerät hat das Update abgelehnt: %s%s (%s)",
    "up_again": "%s (tafel update noch einmal ausführen: es macht dort weiter, wo es aufgehört hat)",
    "up_was_rolled_back": "%s wurde auf diesem Gerät %s zurückgenommen (%s)",
    "up_rolled_back_force": "%s; mit --force noch einmal senden (rolled_back)",
    "up_rolled_back_again": "%s; sende es noch einmal (--force)",
    "up_other_content": "aus anderem Inhalt gebaut (Paket %s, dieses %s)",
    "up_unknown_bundle": "aus einem Paket, das dieses tafel nicht erkennt (das Gerät nennt keines)",
    "up_other_build": "das Gerät läuft schon mit %s, %s; um dieses Paket darüber aufzuspielen, mit --force "
                      "senden (das Gerät nimmt es nur, wenn es mit --allow-downgrade gebaut wurde) (other_build)",
    "up_anyway": "das Gerät läuft schon mit %s, %s; sende es trotzdem (--force)",
    "up_not_sent": "nicht gesendet: %s Es ist bei Start %d von %d und bestätigt sich nach %d s weiterer "
                   "Laufzeit. (on_trial)",
    "up_stopped_waiting": "Warten beendet: das Gerät setzt die Probe von %s allein fort; tafel info sagt, wie "
                          "sie ausging",
    "up_confirmed": "das Gerät wurde neu gestartet und läuft mit %s; es hat sich als gesund bestätigt%s",
    "up_probation": " (auf Bewährung: ein Absturz in den ersten Minuten nimmt es noch zurück)",
    "up_no_record": "%s startete, dann kam das Gerät mit %s zurück, ohne Aufzeichnung des Grundes",
    "up_rolled_back": "das Update wurde zurückgenommen: %s; das Gerät läuft wieder mit %s (Spiele und "
                      "Einstellungen sind unberührt)",
    "up_advice": "Scheitert %s, kehrt das Gerät von selbst zu %s zurück, nach %d Starts: in ein paar Minuten "
                 "mit tafel info nachsehen. Bleibt es dunkel oder startet es immer wieder neu, ausschalten und %s "
                 "beim Einschalten halten: es kehrt zu %s zurück (docs/updates.md, Probestarts und Rücknahme).",
    "up_still_trial": "%s ist nach %d s noch in der Probezeit (Start %d von %d, es bestätigt sich nach %d s "
                      "weiterer Laufzeit). %s",
    "up_not_switched": "das Gerät läuft noch mit %s, %d s nach dem Umschalten auf %s, und zeichnet keine "
                       "Rücknahme auf. %s",
    "up_silent": "das Gerät antwortet seit %d s nicht (es wurde auf %s umgeschaltet, vor %d s; eine ganze Probe "
                 "dauert höchstens %d s). %s",
    # the trial's progress (update/trial.py)
    "tr_boot": "in der Probezeit: Start %d von %d",
    "tr_confirms_in": ", bestätigt sich in %d s",
    "tr_restart_into": "warte, bis das Gerät mit %s neu startet",
    "tr_come_back": "warte, bis das Gerät wieder antwortet",
}
