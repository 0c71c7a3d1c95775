# pytest (CPython) settings for the whole tree: tests/firmware runs only under MicroPython (make test).
collect_ignore = ["firmware"]
