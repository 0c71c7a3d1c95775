# Tafel on an ESP32-WROOM-32 (no PSRAM, 4 MB flash): MicroPython with the application frozen in.
# Built by firmware/port/esp32/build.sh with ESP-IDF v5.5.1; see firmware/port/README.md.
#
# The partition table's path goes into an sdkconfig fragment written here, absolute: ESP-IDF
# reads CONFIG_PARTITION_TABLE_CUSTOM_FILENAME relative to ports/esp32, which this folder is not in.
file(WRITE ${CMAKE_BINARY_DIR}/sdkconfig.tafel_partitions
    "CONFIG_PARTITION_TABLE_CUSTOM=y\nCONFIG_PARTITION_TABLE_CUSTOM_FILENAME=\"${MICROPY_BOARD_DIR}/partitions-tafel.csv\"\n")
set(SDKCONFIG_DEFAULTS
    boards/sdkconfig.base
    ${MICROPY_BOARD_DIR}/sdkconfig.board
    ${CMAKE_BINARY_DIR}/sdkconfig.tafel_partitions
)
set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/manifest.py)
