// What ESP-IDF itself allocates from its heap when the firmware uses the network: one table.
//
// tafelchip.IDF_COSTS is this table as a tuple of (event, bytes, count): for the event, take
// `count` allocations of `bytes` each with tafelchip.idf_alloc (an event may have several rows).
// The figures are for an ESP32 with MicroPython's sdkconfig (ports/esp32/boards/sdkconfig.base)
// and ESP-IDF's defaults; the sources (full addresses in firmware/port/README.md):
//
//   [8940]  micropython/micropython#8940 (jimmo, ESP32, measured with MicroPython's esp32 port):
//           "wifi stack (28kiB for initialisation, 2.5kiB for active, 7kiB for connect ...)",
//           "lwip (~4-7kiB per socket)", "mbedtls (16kiB + 4kiB per wrapped socket for buffers,
//           plus a further ~15kiB at peak)"; fetching an http resource "the largest available
//           IDF heap alloc is 25600. This drops to 15616 while the socket is open (9.75kiB total)".
//   [wifi]  ESP-IDF v5.5.1 docs/en/api-guides/wifi.rst, "Wi-Fi Buffer Usage": Static RX Buffer
//           "10 * 1600 Bytes ... initialized in esp_wifi_init()"; components/esp_wifi/Kconfig
//           ESP_WIFI_STATIC_RX_BUFFER_NUM default 10.
//   [12100] espressif/esp-idf#12100, an ESP32 on ESP-IDF v5: "wifi driver task: ..., stack:6656".
//   [lwip]  ESP-IDF v5.5.1 components/lwip/Kconfig: LWIP_TCP_WND_DEFAULT 5760 (4 * MSS 1440).
//   [5303]  micropython/micropython#5303: mbedtls_ssl_setup "tries to allocate two 16717
//           buffers"; sdkconfig.base sets CONFIG_MBEDTLS_ASYMMETRIC_CONTENT_LEN=y ("4kiB output
//           buffer instead of default 16kiB"), so the output buffer is 4096 + the same 333.
//
// Where a source gives a total only, the rest is split into pieces of 1 KB or less (our choice:
// ESP-IDF's own allocations are many and small; a piece that size fits most holes).
#ifndef TAFEL_IDFCOSTS_H
#define TAFEL_IDFCOSTS_H

// X(event, bytes, count)
#define TAFEL_IDF_COSTS(X) \
    /* network.WLAN(STA_IF) the first time: esp_wifi_init, 28 KiB [8940] = */ \
    X(wifi_init, 1600, 10)      /* the static RX buffers [wifi] */ \
    X(wifi_init, 6656, 1)       /* the Wi-Fi driver task's stack [12100] */ \
    X(wifi_init, 1024, 6)       /* the rest of the 28 KiB [8940] */ \
    /* WLAN.active(True): esp_wifi_start, 2.5 KiB [8940] */ \
    X(wifi_start, 640, 4) \
    /* WLAN.connect() until connected (association, DHCP), 7 KiB [8940] */ \
    X(wifi_connect, 1024, 7) \
    /* one lwIP TCP socket, open: the low end of "~4-7kiB per socket" [8940] */ \
    X(socket_tcp, 1024, 4) \
    /* one lwIP UDP socket: no figure of its own found; the TCP socket's (too much, not too little) */ \
    X(socket_udp, 1024, 4) \
    /* received data an HTTP fetch holds until read: 9.75 KiB - the socket's 4 KiB [8940], */ \
    /* a full receive window of 4 segments [lwip], one Wi-Fi RX buffer each */ \
    X(http_rx, 1472, 4) \
    /* a TLS socket (ssl.wrap_socket): mbedTLS's record buffers [5303], [8940] */ \
    X(tls_buffers, 16717, 1) \
    X(tls_buffers, 4429, 1) \
    /* during the TLS handshake, on top: "a further ~15kiB at peak" [8940] */ \
    X(tls_handshake, 1024, 15)

#endif // TAFEL_IDFCOSTS_H
