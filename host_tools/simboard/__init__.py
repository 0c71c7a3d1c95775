# The simulated board around the chip: displays and their glass, the keypad, the encoder (bench.py wires them).
