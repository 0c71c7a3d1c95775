# The exit status of every `tafel` command: one set of numbers with one meaning each (README, "Exit codes").
from enum import IntEnum


class Exit(IntEnum):
    OK = 0
    FAILED = 1  # the device or the work said no: a refusal, a failed read or write, a rescue that is not whole
    USAGE = 2  # the command line or an input file is wrong (a bundle or image that cannot be read)
    NO_DEVICE = 3  # no Tafel found, or the port named has none
    AT_PROMPT = 4  # a device at the MicroPython prompt: its app is not running (docs/troubleshooting)
    INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as a shell reports it
    PIPE_CLOSED = 141  # 128 + SIGPIPE: the reader of the output went away
