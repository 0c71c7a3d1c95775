# Recovery mode: a flash whose file system does not show the games it holds (firmware/store/mount.py decides).
#
#   rawscan.py    the raw flash searched for games' create records, block by block
#   app.py        the device in recovery: what is wrong on screen, C then # formats
#   screen.py     its pages on the display
#   commands.py   its link: HELLO, INFO, FLASH_READ, else ERR recovery
#   flashread.py  FLASH_READ, the raw partition streamed (normal mode serves it too)
#   boot.py       the chip's boot (port/_boot.py): mount, or run recovery
#   profile.py    the board profile kept in NVS, for a boot whose flash does not mount
