# The serial link: the protocol of docs/protocol.md on the USB serial, polled from the main loop.
#
#   transport.py  the byte streams (stdin/stdout on the device, FIFOs in the simulator)
#   link.py       lines, session, replies, the export window: Link.poll(now) every step
#   commands.py   what each request does (info, list, clock, roster, mark, delete, wipe)
#   export.py     which games an export sends, and its stream of frames
#   flashread.py  FLASH_READ: the raw partition streamed, read-only (recovery mode serves it too)
