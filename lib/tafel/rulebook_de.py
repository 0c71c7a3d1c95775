# The rulebook in German (read through tafel.rulebook): values, cards, +4, two players, UNO, scoring, deal, teams.
# Paragraphs are separated by "\n"; the reader wraps them to its width (no word is longer than 16).
MENU = ("Kartenwerte", "Was Karten tun", "+4 anzweifeln", "Bluff prüfen", "Zu zweit", "UNO rufen",
        "Wertung bis 500", "Geben", "Im Team")
# The pages' titles, 10 characters at most.
TITLES = ("Punkte", "Karten", "+4 Zweifel", "Zu zweit", "UNO!", "Wertung", "Geben", "Im Team")
CHECK = "Bluff?"

# Ranks 10-16 of tafel.cards.RANKS as the table calls them.
NAMES = ("Aussetzen", "Retour", "Zieh Zwei", "Farbenwahl", "Zieh Vier", "Handtausch", "Blanko")
NUMBERS = "0-9"
FACE = "Zahlwert"
DECK = "%d Karten"
HOUSE = "Werte dieses Spiels:"
VALUES = ("Wer eine Runde gewinnt, bekommt die Punkte aller Karten, die die anderen noch in der Hand "
          "halten. Ein Tisch darf eigene Werte vereinbaren.")

CARDS = (
    "Passt eine Karte in Farbe, Zahl oder Symbol zur obersten, darf sie gelegt werden. Sonst eine "
    "Karte ziehen; nur diese darf gleich gelegt werden, wenn sie passt.\n"
    "Aussetzen: Der Nächste setzt aus.\n"
    "Retour: Die Richtung dreht sich.\n"
    "Zieh Zwei: Der Nächste zieht 2 Karten und setzt aus.\n"
    "Farbenwahl: Passt immer. Wer sie legt, sagt die Farbe an.\n"
    "Zieh Vier: Farbe ansagen; der Nächste zieht 4 Karten und setzt aus. Nur erlaubt ohne Karte der "
    "Farbe, die gerade gilt. Darf angezweifelt werden.\n"
    "Handtausch: Alle Hände einsammeln, mischen, neu austeilen, Farbe ansagen. Manche Ausgaben: die "
    "Hand mit einem Mitspieler tauschen.\n"
    "Blanko: Der Tisch schreibt seine Regel darauf.\n"
    "Gezogen wird immer: +2 auf +2 weitergeben ist nur Hausregel.\n"
    "Endet die Runde mit +2 oder +4, zieht der Nächste trotzdem; die Karten zählen mit."
)

CHALLENGE = (
    "1. Anzweifeln darf nur, wer die 4 Karten ziehen soll.\n"
    "2. Wer die +4 gelegt hat (der Leger), zeigt ihm allein die Hand, die er vor der +4 hielt.\n"
    "3. Es zählt nur die Farbe, die vor der +4 galt. Gleiche Zahlen in anderen Farben und schwarze "
    "Karten zählen nicht.\n"
    "4. Hatte er eine Karte dieser Farbe: Bluff! Der Leger zieht selbst 4 Karten, der Zweifler spielt "
    "normal weiter.\n"
    "5. Hatte er keine: ehrlich. Der Zweifler zieht 6 Karten (die 4 und 2 dazu) und setzt aus."
)

TWO = (
    "Zu zweit gelten dieselben Regeln, mit diesen Folgen:\n"
    "Retour wirkt wie Aussetzen: Wer sie legt, ist gleich noch einmal dran.\n"
    "Aussetzen: Wer es legt, ist gleich wieder dran.\n"
    "Zieh Zwei und Zieh Vier: Der andere zieht, dann ist der Leger wieder dran.\n"
    "So geht man mit einer Aktionskarte als vorletzter Karte oft in einem Zug aus. UNO rufen nicht "
    "vergessen!"
)

UNO = (
    "Beim Legen der vorletzten Karte ist UNO zu rufen.\n"
    "Vergessen? Bemerkt das jemand, ehe der folgende Spieler loslegt, kostet es 2 Strafkarten. Zu spät "
    "bemerkt, bleibt es ohne Strafe."
)

SCORING = (
    "Standard: Die Runde gewinnt, wer zuerst alle Karten abgelegt hat; er bekommt den Wert aller Karten, "
    "die den anderen übrig bleiben. Beispiel: Ben hat eine 7 und ein Aussetzen (27), Cleo eine Farbenwahl "
    "(50): Der Sieger erhält 77. Die Partie gewinnt, wer zuerst das Ziel erreicht (meist 500).\n"
    "Minuspunkte: Jeder schreibt sich den Wert der eigenen Resthand an. Sobald einer das Ziel erreicht, "
    "ist die Partie aus, und die kleinste Summe gewinnt; Gleichstand teilt den Sieg.\n"
    "Zählweise und Ziel wählt man beim Anlegen der Partie."
)

DEALING = (
    "Jeder deckt eine Karte auf; wer die höchste Zahl hat, gibt als Erster (Aktionskarten zählen 0). "
    "Jeder erhält 7 Karten verdeckt, der Rest ist der Stapel, seine oberste Karte kommt offen daneben. "
    "Links vom Geber geht es los, dann im Uhrzeigersinn.\n"
    "Jede neue Runde gibt der linke Nachbar des letzten Gebers. Der Stand zeigt, wer als Nächstes gibt."
)

TEAMS = (
    "Partner sitzen einander gegenüber. Sobald einer von ihnen die letzte Karte gelegt hat, ist die Runde "
    "vorbei, und das Team erhält den Wert der Karten, die die Gegner noch halten.\n"
    "Auf der Tafel belegt ein Team einen Platz unter einem Namen (Anna & Ben). Das ausgegangene Team wird "
    "Sieger; für das andere beide Hände eintippen, verbunden mit B (+)."
)

# The bluff check: the colour in play, then the question; the verdict names who draws how many (%d).
COLOURS = ("Rot", "Gelb", "Grün", "Blau")
PICK = "Welche Farbe galt vor der +4?"
ASK = "Hatte der Leger vor der +4 eine Karte in %s?\nSchwarze Karten zählen nicht."
YES_NO = ("Ja", "Nein")
BLUFF = ("Bluff!", "Der Leger hatte %s und zieht selbst %d Karten. Der Zweifler spielt normal weiter.")
HONEST = ("Ehrlich", "Der Leger hatte kein %s. Der Zweifler zieht %d Karten und setzt aus.")
AGAIN = "# = noch einmal"
TRY = "# = Bluff prüfen"
