# The rulebook in English (read through tafel.rulebook): card values, what the cards do, the +4 challenge, two players.
# Paragraphs are separated by "\n"; the reader wraps them to its width (no word is longer than 16).
MENU = ("Card values", "What cards do", "+4 challenge", "Check a bluff", "Two players")
TITLES = ("Points", "Cards", "Challenge", "2 players")  # the pages' titles, 10 characters at most
CHECK = "Bluff?"

# Ranks 10-16 of tafel.cards.RANKS as the table calls them.
NAMES = ("Skip", "Reverse", "Draw Two", "Wild", "Wild Draw 4", "Shuffle Hands", "Blank")
NUMBERS = "0-9"
FACE = "face value"
DECK = "%d cards"
HOUSE = "This game's values:"
VALUES = ("Whoever wins a round scores the points of every card the others still hold. A table "
          "may agree its own values.")

CARDS = (
    "A card that matches the top card in colour, number or symbol may be played. Else draw one card; "
    "only that one may be played at once, if it fits.\n"
    "Skip: the next player misses a turn.\n"
    "Reverse: the direction of play turns.\n"
    "Draw Two: the next player draws 2 cards and misses a turn.\n"
    "Wild: fits any card. Whoever plays it names the colour.\n"
    "Wild Draw Four: name the colour; the next player draws 4 cards and misses a turn. Allowed only "
    "without a card of the colour in play. May be challenged.\n"
    "Shuffle Hands: collect all hands, shuffle, deal them again, name the colour. Some editions: "
    "swap hands with another player.\n"
    "Blank: the table writes its own rule on it.\n"
    "Whoever must draw, draws: passing +2 on with a +2 is a house rule only.\n"
    "If a round ends on a +2 or +4, the next player still draws, and those cards count."
)

CHALLENGE = (
    "1. Only the player who is to draw the 4 cards may challenge.\n"
    "2. The player of the +4 shows the challenger alone the hand held before the +4.\n"
    "3. Only the colour in play before the +4 counts. Matching numbers in other colours and black "
    "cards do not.\n"
    "4. A card of that colour: bluff! The player of the +4 draws the 4 cards; the challenger plays "
    "on as normal.\n"
    "5. None: honest. The challenger draws 6 cards (the 4 and 2 more) and misses the turn."
)

TWO = (
    "With two players the rules stay the same, with these effects:\n"
    "Reverse acts as Skip: whoever plays it goes again at once.\n"
    "Skip: whoever plays it goes again.\n"
    "Draw Two and Wild Draw Four: the other player draws, then it is the same player's turn again.\n"
    "So an action card as the second-to-last card often lets you go out in one turn. Do not forget "
    "to call UNO!"
)

# The bluff check: the colour in play, then the question; the verdict names who draws how many (%d).
COLOURS = ("red", "yellow", "green", "blue")
PICK = "Which colour was in play before the +4?"
ASK = "Before the +4: any %s card in the hand?\nBlack cards do not count."
YES_NO = ("Yes", "No")
BLUFF = ("Bluff!", "The player held %s and draws %d cards. The challenger plays on as normal.")
HONEST = ("Honest", "The player held no %s. The challenger draws %d cards and misses the turn.")
AGAIN = "# = once more"
TRY = "# = check bluff"
