# Recovery mode: a flash whose file system does not show the games it holds (firmware/store/mount.py decides).
#
#   app.py        the device in recovery: what is wrong on screen, C then # formats
#   screen.py     its pages on the display
#   commands.py   its link: HELLO, INFO, FLASH_READ (link/flashread.py), else ERR recovery
# The raw scan that decides it is store/rawscan.py.
#   boot.py       the chip's boot (port/_boot.py): mount, or run recovery
#   profile.py    the board profile kept in NVS, for a boot whose flash does not mount
