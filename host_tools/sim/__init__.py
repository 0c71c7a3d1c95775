# The simulator's launcher (`tafel sim`): the firmware on the MicroPython unix port, its board, display, keys and serial line.
