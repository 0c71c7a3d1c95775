// Tafel on an ESP32-WROOM-32: the generic ESP32 board with the application frozen in.
#define MICROPY_HW_BOARD_NAME "Tafel (ESP32-WROOM-32)"
#define MICROPY_HW_MCU_NAME "ESP32"

// Tafel uses no Bluetooth (sdkconfig.board leaves it out of ESP-IDF too).
#define MICROPY_PY_BLUETOOTH (0)
