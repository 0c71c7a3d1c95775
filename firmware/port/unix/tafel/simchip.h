// simchip: the simulator's chip side in C (simchip.c: the wire, the pins, the buses, the
// watchdog; simflash.c: the flash chip in its image file; simnet.c: the Wi-Fi station and the
// sockets). firmware/port/README.md, "The simulator's chip in C".
#ifndef TAFEL_SIMCHIP_H
#define TAFEL_SIMCHIP_H

#include "py/obj.h"

extern const mp_obj_type_t simchip_flash_type;

// simnet.c: a new Wi-Fi station (sim/simnet.py's SimWLAN()), the one static object
mp_obj_t simnet_station(void);

// simtime.c: the chip's time since power-up moves on by ms of simulated time
void simtime_pass(uint64_t ms);

#endif
