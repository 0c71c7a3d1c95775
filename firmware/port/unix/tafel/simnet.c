// The simulator's Wi-Fi in C (the device build): network.WLAN's station and the counted sockets,
// with exactly the behaviour of the Python reference sim/simnet.py and nothing of the chip's heap
// but a socket's own object. firmware/port/README.md, "The simulator's chip in C".
//
// The station is one static object (simchip.WLAN() gives it, made again at each power-up); its
// ESP-IDF allocations are the model's (idfheap.c), taken and given back in the reference's order.
// The socket is the unix port's with room for its ESP-IDF handles: the same fields first, so the
// unix port's own methods and stream functions take it as theirs; connect and close are ours.
// Once a station was made, `import socket` gives the module below (the reference puts itself
// into sys.modules), through the linker: -Wl,--wrap=mp_module_get_builtin (mpconfigvariant.mk).
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "py/objmodule.h"
#include "py/objstr.h"
#include "py/runtime.h"
#include "py/stream.h"
#include "py/mperrno.h"

#include "idfcosts.h"
#include "idfheap.h"
#include "simchip.h"

#define STAT_IDLE (1000)
#define STAT_CONNECTING (1001)
#define STAT_GOT_IP (1010)
#define STAT_NO_AP_FOUND (201)  // ESP-IDF's reasons, as the ESP32 port's status() reports them
#define STAT_WRONG_PASSWORD (202)

extern const mp_obj_type_t mp_type_socket;        // ports/unix/modsocket.c
extern const mp_obj_module_t mp_module_socket;

MP_REGISTER_ROOT_POINTER(mp_obj_t simnet_networks);

// ---- ESP-IDF's allocations (the reference's take and give) ----

typedef struct {
    const char *event;
    uint16_t bytes;
    uint16_t count;
} cost_t;

#define COST_ROW(event, bytes, count) { #event, bytes, count },
static const cost_t costs[] = { TAFEL_IDF_COSTS(COST_ROW) };

typedef struct {
    uint8_t n;
    uint16_t h[24];
} handles_t;

typedef struct {
    uint8_t n;
    uint16_t h[4];
} few_handles_t;  // a socket's: socket_tcp, socket_udp and http_rx are 4 allocations each

static void give(uint16_t *h, uint8_t *n) {
    while (*n) {  // the last taken first, as the reference pops them
        tafel_idf_free(h[--*n]);
    }
}

// The allocations of `event` into h (room for cap), in the table's order; OSError(ENOMEM) when the
// model's heap cannot have one (what was taken goes back).
static void take(const char *event, uint16_t *h, uint8_t *n, size_t cap) {
    for (size_t i = 0; i < MP_ARRAY_SIZE(costs); i++) {
        if (strcmp(costs[i].event, event) != 0) {
            continue;
        }
        for (int k = 0; k < costs[i].count; k++) {
            if (*n >= cap) {
                give(h, n);
                mp_raise_msg(&mp_type_RuntimeError, MP_ERROR_TEXT("simnet: more ESP-IDF allocations than room"));
            }
            int handle = tafel_idf_alloc(costs[i].bytes);
            if (handle == 0) {
                give(h, n);
                mp_raise_OSError(MP_ENOMEM);  // ESP-IDF's malloc failed
            }
            h[(*n)++] = handle;
        }
    }
}

#define TAKE(event, hs) take(event, (hs).h, &(hs).n, MP_ARRAY_SIZE((hs).h))
#define GIVE(hs) give((hs).h, &(hs).n)

// ---- the station ----

static handles_t st_init, st_start, st_link;  // ESP-IDF's while it exists, started, connected
static bool st_active;
static int st_status = STAT_IDLE;
static int st_polls;
static bool counted;  // a station was made: `import socket` is the module below

static mp_obj_t networks(void) {
    mp_obj_t nets = MP_STATE_VM(simnet_networks);
    return nets == MP_OBJ_NULL ? mp_const_none : nets;
}

static mp_obj_t wlan_active(size_t n_args, const mp_obj_t *args) {
    if (n_args < 2 || args[1] == mp_const_none) {
        return mp_obj_new_bool(st_active);
    }
    bool on = mp_obj_is_true(args[1]);
    if (on && !st_active) {
        TAKE("wifi_start", st_start);
    } else if (!on && st_active) {
        GIVE(st_link);
        GIVE(st_start);
    }
    st_active = on;
    if (!on) {
        st_status = STAT_IDLE;
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(wlan_active_obj, 1, 2, wlan_active);

static mp_obj_t wlan_connect(size_t n_args, const mp_obj_t *args) {
    if (!st_active) {
        mp_raise_msg(&mp_type_OSError, MP_ERROR_TEXT("WLAN not active"));
    }
    mp_obj_t ssid = args[1];
    mp_obj_t key = n_args > 2 && mp_obj_is_true(args[2]) ? args[2] : MP_OBJ_NEW_QSTR(MP_QSTR_);
    mp_obj_t nets = networks();
    if (nets != mp_const_none && !mp_obj_is_true(mp_binary_op(MP_BINARY_OP_CONTAINS, nets, ssid))) {
        st_status = STAT_NO_AP_FOUND;
    } else if (nets != mp_const_none && !mp_obj_equal(mp_obj_subscr(nets, ssid, MP_OBJ_SENTINEL), key)) {
        st_status = STAT_WRONG_PASSWORD;
    } else {
        if (st_link.n == 0) {
            TAKE("wifi_connect", st_link);
        }
        st_status = STAT_CONNECTING;
        st_polls = 2;  // a couple of polls "connecting" first, as a real join takes a while
    }
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(wlan_connect_obj, 2, 3, wlan_connect);

static mp_obj_t wlan_disconnect(mp_obj_t self) {
    GIVE(st_link);
    st_status = STAT_IDLE;
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(wlan_disconnect_obj, wlan_disconnect);

static int poll_status(void) {
    if (st_status == STAT_CONNECTING && --st_polls <= 0) {
        st_status = STAT_GOT_IP;
    }
    return st_status;
}

static mp_obj_t wlan_status(size_t n_args, const mp_obj_t *args) {
    return MP_OBJ_NEW_SMALL_INT(poll_status());
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(wlan_status_obj, 1, 2, wlan_status);

static mp_obj_t wlan_isconnected(mp_obj_t self) {
    return mp_obj_new_bool(st_active && poll_status() == STAT_GOT_IP);
}
static MP_DEFINE_CONST_FUN_OBJ_1(wlan_isconnected_obj, wlan_isconnected);

static const MP_DEFINE_STR_OBJ(loopback_obj, "127.0.0.1");
static const MP_DEFINE_STR_OBJ(netmask_obj, "255.0.0.0");
static const struct {
    mp_obj_base_t base;
    size_t len;
    mp_rom_obj_t items[4];
} ifconfig_tuple = {{&mp_type_tuple}, 4, {MP_ROM_PTR(&loopback_obj), MP_ROM_PTR(&netmask_obj),
                                          MP_ROM_PTR(&loopback_obj), MP_ROM_PTR(&loopback_obj)}};

static mp_obj_t wlan_ifconfig(size_t n_args, const mp_obj_t *args) {
    return MP_OBJ_FROM_PTR(&ifconfig_tuple);
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(wlan_ifconfig_obj, 1, 2, wlan_ifconfig);

// networks: {ssid: password} in range, or None for any (read and set, as the reference's attribute)
static void wlan_attr(mp_obj_t self, qstr attr, mp_obj_t *dest) {
    if (attr != MP_QSTR_networks) {
        dest[1] = MP_OBJ_SENTINEL;  // the methods: locals_dict
    } else if (dest[0] == MP_OBJ_NULL) {
        dest[0] = networks();
    } else if (dest[1] != MP_OBJ_NULL) {
        MP_STATE_VM(simnet_networks) = dest[1];
        dest[0] = MP_OBJ_NULL;
    }
}

static const mp_rom_map_elem_t wlan_locals_table[] = {
    { MP_ROM_QSTR(MP_QSTR_active), MP_ROM_PTR(&wlan_active_obj) },
    { MP_ROM_QSTR(MP_QSTR_connect), MP_ROM_PTR(&wlan_connect_obj) },
    { MP_ROM_QSTR(MP_QSTR_disconnect), MP_ROM_PTR(&wlan_disconnect_obj) },
    { MP_ROM_QSTR(MP_QSTR_status), MP_ROM_PTR(&wlan_status_obj) },
    { MP_ROM_QSTR(MP_QSTR_isconnected), MP_ROM_PTR(&wlan_isconnected_obj) },
    { MP_ROM_QSTR(MP_QSTR_ifconfig), MP_ROM_PTR(&wlan_ifconfig_obj) },
};
static MP_DEFINE_CONST_DICT(wlan_locals, wlan_locals_table);

static MP_DEFINE_CONST_OBJ_TYPE(
    simnet_wlan_type,
    MP_QSTR_WLAN,
    MP_TYPE_FLAG_NONE,
    attr, wlan_attr,
    locals_dict, &wlan_locals
    );

static const mp_obj_base_t station = {&simnet_wlan_type};

// A new station (the reference's SimWLAN()): wifi_init taken, off, idle, any network. The one
// before it, if any, is forgotten with what it held of ESP-IDF's heap, as the reference's is.
mp_obj_t simnet_station(void) {
    handles_t init = {0};
    TAKE("wifi_init", init);
    st_init = init;
    st_start.n = st_link.n = 0;
    MP_STATE_VM(simnet_networks) = mp_const_none;
    st_active = false;
    st_status = STAT_IDLE;
    st_polls = 0;
    counted = true;
    return MP_OBJ_FROM_PTR(&station);
}

// ---- the counted socket ----

typedef struct {
    mp_obj_base_t base;
    int fd;         // the unix port's mp_obj_socket_t up to here: its methods take this object
    bool blocking;
    bool rx_taken;  // the reference's `_rx is not None`: taken once, at the first connect
    few_handles_t idf, rx;
} simnet_socket_t;

static const mp_obj_type_t simnet_socket_type;

static const mp_stream_p_t *unix_stream(void) {
    return MP_OBJ_TYPE_GET_SLOT(&mp_type_socket, protocol);
}

static mp_obj_t unix_method(qstr name) {
    mp_map_t *map = &MP_OBJ_TYPE_GET_SLOT(&mp_type_socket, locals_dict)->map;
    mp_map_elem_t *elem = mp_map_lookup(map, MP_OBJ_NEW_QSTR(name), MP_MAP_LOOKUP);
    return elem == NULL ? MP_OBJ_NULL : elem->value;
}

static mp_obj_t socket_make_new(const mp_obj_type_t *type, size_t n_args, size_t n_kw, const mp_obj_t *args) {
    mp_arg_check_num(n_args, n_kw, 0, 3, false);
    int family = n_args > 0 ? mp_obj_get_int(args[0]) : AF_INET;
    int kind = n_args > 1 ? mp_obj_get_int(args[1]) : SOCK_STREAM;
    int proto = n_args > 2 ? mp_obj_get_int(args[2]) : 0;
    few_handles_t idf = {0};
    TAKE(kind == SOCK_STREAM ? "socket_tcp" : "socket_udp", idf);
    MP_THREAD_GIL_EXIT();
    int fd = socket(family, kind, proto);
    MP_THREAD_GIL_ENTER();
    if (fd == -1) {
        int err = errno;
        GIVE(idf);
        mp_raise_OSError(err);
    }
    simnet_socket_t *o = mp_obj_malloc(simnet_socket_t, &simnet_socket_type);
    o->fd = fd;
    o->blocking = true;
    o->rx_taken = false;
    o->idf = idf;
    o->rx.n = 0;
    return MP_OBJ_FROM_PTR(o);
}

static void take_rx(simnet_socket_t *self) {
    if (!self->rx_taken) {
        TAKE("http_rx", self->rx);
        self->rx_taken = true;
    }
}

// The unix port's connect, and a connection's receive buffers (http_rx) taken; a non-blocking
// connect (club/mqtt.py) that goes on in the background (EINPROGRESS) is a connection all the same.
static mp_obj_t socket_connect(mp_obj_t self_in, mp_obj_t addr) {
    simnet_socket_t *self = MP_OBJ_TO_PTR(self_in);
    nlr_buf_t nlr;
    if (nlr_push(&nlr) == 0) {
        mp_call_function_2(unix_method(MP_QSTR_connect), self_in, addr);
        nlr_pop();
    } else {
        mp_obj_t exc = MP_OBJ_FROM_PTR(nlr.ret_val);
        if (mp_obj_is_subclass_fast(MP_OBJ_FROM_PTR(mp_obj_get_type(exc)), MP_OBJ_FROM_PTR(&mp_type_OSError))
            && mp_obj_exception_get_value(exc) == MP_OBJ_NEW_SMALL_INT(MP_EINPROGRESS)) {
            take_rx(self);
        }
        nlr_jump(nlr.ret_val);
    }
    take_rx(self);
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_2(socket_connect_obj, socket_connect);

static mp_obj_t socket_close(mp_obj_t self_in) {
    simnet_socket_t *self = MP_OBJ_TO_PTR(self_in);
    GIVE(self->rx);
    GIVE(self->idf);  // emptied: a second close gives nothing back twice
    return mp_stream_close(self_in);
}
static MP_DEFINE_CONST_FUN_OBJ_1(socket_close_obj, socket_close);

// Every other attribute is the unix port's socket's (its C functions, given this object).
static void socket_attr(mp_obj_t self, qstr attr, mp_obj_t *dest) {
    if (dest[0] != MP_OBJ_NULL) {
        return;  // no attribute is set
    }
    if (attr == MP_QSTR_connect) {
        dest[0] = MP_OBJ_FROM_PTR(&socket_connect_obj);
    } else if (attr == MP_QSTR_close) {
        dest[0] = MP_OBJ_FROM_PTR(&socket_close_obj);
    } else {
        mp_obj_t member = unix_method(attr);
        if (member != MP_OBJ_NULL) {
            mp_convert_member_lookup(self, &simnet_socket_type, member, dest);
        }
        return;
    }
    dest[1] = self;
}

static void socket_print(const mp_print_t *print, mp_obj_t self, mp_print_kind_t kind) {
    MP_OBJ_TYPE_GET_SLOT(&mp_type_socket, print)(print, self, kind);
}

static mp_uint_t socket_read(mp_obj_t self, void *buf, mp_uint_t size, int *errcode) {
    return unix_stream()->read(self, buf, size, errcode);
}

static mp_uint_t socket_write(mp_obj_t self, const void *buf, mp_uint_t size, int *errcode) {
    return unix_stream()->write(self, buf, size, errcode);
}

static mp_uint_t socket_ioctl(mp_obj_t self, mp_uint_t request, uintptr_t arg, int *errcode) {
    return unix_stream()->ioctl(self, request, arg, errcode);
}

static const mp_stream_p_t socket_stream_p = {
    .read = socket_read,
    .write = socket_write,
    .ioctl = socket_ioctl,
};

static MP_DEFINE_CONST_OBJ_TYPE(
    simnet_socket_type,
    MP_QSTR_socket,
    MP_TYPE_FLAG_NONE,
    make_new, socket_make_new,
    print, socket_print,
    attr, socket_attr,
    protocol, &socket_stream_p
    );

// ---- the firmware's `socket` once a station was made ----

// The unix port's names (AF_INET, getaddrinfo, sockaddr, ...), as the reference's module __getattr__.
static mp_obj_t module_getattr(mp_obj_t name) {
    return mp_load_attr(MP_OBJ_FROM_PTR(&mp_module_socket), mp_obj_str_get_qstr(name));
}
static MP_DEFINE_CONST_FUN_OBJ_1(module_getattr_obj, module_getattr);

static const mp_rom_map_elem_t socket_module_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_socket) },
    { MP_ROM_QSTR(MP_QSTR_socket), MP_ROM_PTR(&simnet_socket_type) },
    { MP_ROM_QSTR(MP_QSTR___getattr__), MP_ROM_PTR(&module_getattr_obj) },
};
static MP_DEFINE_CONST_DICT(socket_module_globals, socket_module_table);

static const mp_obj_module_t counted_socket_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&socket_module_globals,
};

mp_obj_t __real_mp_module_get_builtin(qstr module_name, bool extensible);

mp_obj_t __wrap_mp_module_get_builtin(qstr module_name, bool extensible) {
    mp_obj_t module = __real_mp_module_get_builtin(module_name, extensible);
    if (counted && module == MP_OBJ_FROM_PTR(&mp_module_socket)) {
        return MP_OBJ_FROM_PTR(&counted_socket_module);
    }
    return module;
}
