# `tafel rescue`: games recovered from a raw flash image (LittleFS read tolerantly, journal frames wherever they lie).
