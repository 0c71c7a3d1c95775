// Tafel enclosure for the default board (esp32-devkitc-ssd1306): a tray and a lid, both printed without supports.
//
// Parts: ESP32 DevKitC V4 (54.4 x 27.9 mm, micro-USB), 0.96" SSD1306 OLED
// module (I2C, 4 pins), the common 69 x 77 mm 4x4 membrane keypad with its
// 8-pin ribbon, and a KY-040 rotary encoder. The keypad sticks onto the lid
// (its adhesive back), the OLED is screwed under the display window, the
// KY-040 is held by the nut on its bushing, the DevKitC sits on two rails in
// the tray with its micro-USB at the opening in the left wall. Four M3 screws
// come up through the tray's floor into posts under the lid, so nothing
// breaks the lid's top face but the window, the knob and the ribbon slot.
//
// Measure your parts: modules from different shops differ by a millimetre or
// two. Every size is a parameter below; the layout follows from them.
//
//   openscad -o tray.stl -D 'view="tray"' tafel.scad     // the tray, as printed
//   openscad -o lid.stl  -D 'view="lid"'  tafel.scad     // the lid, top face down, as printed
//   make enclosure                                        // the PNG previews in this folder
//
// Axes: x left to right, y front (the keypad) to back (display and knob), z up.

/* [What to show] */
view = "assembly";  // assembly | tray | lid | print
explode = 45;       // assembly: how far the lid floats above the tray

/* [Walls and fit] */
wall = 2.4;          // side walls
floor_t = 2.0;       // tray floor
lid_t = 2.4;         // lid plate; the KY-040's bushing must reach through it with room for the nut
clearance = 0.4;     // gap around every part in its pocket
corner_r = 4;        // outer corner radius
inner_h = 30;        // inside height of the tray: Dupont plugs under the DevKitC and behind the OLED
margin = 5;          // lid: from the outer edge to the keypad, and around the back strip

/* [ESP32 DevKitC V4] */
devkit = [54.4, 27.9, 1.6];  // PCB: length (USB end to antenna end), width, thickness
devkit_top = 3.6;            // tallest part on the PCB's top (the WROOM module's can)
devkit_under = 20;           // rail height: the header pins and Dupont plugs point down into this room
devkit_gap = 1.0;            // from the left wall's inside to the PCB's USB end
rail_w = 2.5;                // the rails under the PCB's two short ends: must stay clear of the header pins
usb_size = [12.5, 8.5];      // opening for the micro-USB plug's overmold (width, height)
usb_z = 1.6;                 // the micro-USB socket's centre above the PCB's top face

/* [SSD1306 0.96" OLED module] */
oled_pcb = [27.3, 27.8, 1.2];  // module PCB: width, height, thickness
oled_holes = [23.0, 23.4];     // mounting hole centres: spacing in x and y
oled_hole_d = 2.0;             // mounting holes (M2)
oled_glass = [26.7, 19.3];     // the glass on the module
oled_glass_h = 1.6;            // glass and its tape above the PCB: the standoffs' length
oled_window = [23.5, 12.5];    // cut in the lid: the 21.7 x 10.9 mm active area plus a margin
oled_window_dy = 1.0;          // window centre from the module's centre, +y towards the pin header

/* [4x4 membrane keypad] */
keypad = [69, 77, 0.8];     // membrane: width, height, thickness
ribbon_slot = [23, 3.2];    // slot the ribbon and its 8-pin socket (20.3 x 2.5 mm) go through
ribbon_dx = 0;              // ribbon centre from the keypad's centre in x
groove = [0.8, 0.4];        // groove around the membrane to lay it in straight: width, depth

/* [KY-040 rotary encoder] */
ky040_pcb = [26.0, 19.0, 1.6];  // module PCB without its header pins
ky040_shaft_dx = 6.5;           // shaft centre from the PCB's centre in x (towards the end away from the pins)
ky040_body = [12.4, 13.2, 6.5]; // the encoder's body on the PCB
bushing_d = 7.0;                // M7 thread of the bushing
bushing_hole = 7.5;             // its hole in the lid
knob = [16, 14];                // a knob for the pictures: diameter, height

/* [Screws] */
post_d = 7.0;        // posts under the lid
pilot_d = 2.6;       // pilot hole in a post for an M3 self-tapping screw
screw_hole = 3.4;    // through the tray's floor
screw_head = 6.4;    // countersink / head diameter under the floor
oled_pilot = 1.6;    // pilot for the OLED's M2 screws

/* [Battery option] */
switch_slot = false;     // a slot in the right wall for an SS12D00 slide switch
switch_hole = [9.2, 4.4];  // its lever's opening (width, height)

$fn = 48;

// -- layout (derived) --
strip_h = max(oled_pcb[1], knob[0]) + 4;                  // the back strip: display and knob
outer = [keypad[0] + 2 * margin, margin + keypad[1] + 6 + strip_h + margin];
inner = [outer[0] - 2 * wall, outer[1] - 2 * wall];
tray_h = floor_t + inner_h;
keypad_pos = [(outer[0] - keypad[0]) / 2, margin];                 // front-left corner of the membrane
strip_y = keypad_pos[1] + keypad[1] + 6 + strip_h / 2;            // centre line of the back strip
oled_c = [outer[0] * 0.36, strip_y];                              // OLED module centre
knob_c = [outer[0] * 0.78, strip_y];                              // encoder shaft centre
devkit_pos = [wall + devkit_gap, wall + inner[1] * 0.25];         // PCB's front-left corner (USB end left)
devkit_z = floor_t + devkit_under;                                // PCB's underside
posts = [for (x = [wall + post_d / 2, outer[0] - wall - post_d / 2],
              y = [wall + post_d / 2, outer[1] - wall - post_d / 2]) [x, y]];

assert(inner_h > devkit_under + devkit[2] + devkit_top + 2, "inner_h: the DevKitC does not fit under the lid");
assert(oled_c[0] + oled_pcb[0] / 2 < knob_c[0] - ky040_pcb[0] / 2 + ky040_shaft_dx, "the OLED and the KY-040 overlap");

module rounded_box(size, h, r) {
    linear_extrude(h) offset(r) offset(-r) square(size);
}

// -- the tray --
module tray() {
    difference() {
        rounded_box(outer, tray_h, corner_r);
        translate([wall, wall, floor_t]) rounded_box(inner, tray_h, max(corner_r - wall, 0.5));
        for (p = posts) translate([p[0], p[1], -1]) {
            cylinder(d = screw_hole, h = floor_t + 2);
            cylinder(d1 = screw_head, d2 = screw_hole, h = (screw_head - screw_hole) / 2 + 0.01);  // countersink
        }
        // The micro-USB at the DevKitC's left end.
        translate([-1, devkit_pos[1] + devkit[1] / 2 - usb_size[0] / 2, devkit_z + devkit[2] + usb_z - usb_size[1] / 2])
            cube([wall + 2, usb_size[0], usb_size[1]]);
        if (switch_slot)
            translate([outer[0] - wall - 1, outer[1] * 0.3, floor_t + 6]) cube([wall + 2, switch_hole[0], switch_hole[1]]);
    }
    // Rails under the DevKitC's two short ends, with fences beside the PCB that keep it from sliding.
    for (x = [devkit_pos[0], devkit_pos[0] + devkit[0] - rail_w]) {
        translate([x, devkit_pos[1] - clearance - 1.6, floor_t]) cube([rail_w, devkit[1] + 2 * clearance + 3.2, devkit_under]);
        for (y = [devkit_pos[1] - clearance - 1.6, devkit_pos[1] + devkit[1] + clearance])
            translate([x, y, floor_t]) cube([rail_w, 1.6, devkit_under + devkit[2] + 1]);
    }
    // A stop at the antenna end: the USB plug pushes against it.
    translate([devkit_pos[0] + devkit[0] + clearance, devkit_pos[1] + 4, floor_t])
        cube([2, devkit[1] - 8, devkit_under + 3]);
}

// -- the lid, top face at z = lid_t, parts hanging below z = 0 --
module lid() {
    difference() {
        union() {
            rounded_box(outer, lid_t, corner_r);
            // Posts down to the tray's floor, for the screws coming up from below.
            for (p = posts) translate([p[0], p[1], -inner_h + 0.5]) cylinder(d = post_d, h = inner_h - 0.5);
            // A rim just inside the walls keeps the lid in place; it stops short of the posts.
            rim();
            // Standoffs: the OLED's glass rests against the lid, its screws go into these.
            for (sx = [-1, 1], sy = [-1, 1])
                translate([oled_c[0] + sx * oled_holes[0] / 2, oled_c[1] + sy * oled_holes[1] / 2, -oled_glass_h])
                    cylinder(d = 4.2, h = oled_glass_h);
        }
        for (p = posts) translate([p[0], p[1], -inner_h]) cylinder(d = pilot_d, h = inner_h - 1);
        for (sx = [-1, 1], sy = [-1, 1])
            translate([oled_c[0] + sx * oled_holes[0] / 2, oled_c[1] + sy * oled_holes[1] / 2, -oled_glass_h - 1])
                cylinder(d = oled_pilot, h = oled_glass_h + lid_t - 0.8);
        // Display window, widening towards the top face.
        translate([oled_c[0], oled_c[1] + oled_window_dy, -1]) window();
        // Encoder bushing.
        translate([knob_c[0], knob_c[1], -1]) cylinder(d = bushing_hole, h = lid_t + 2);
        // Ribbon slot at the keypad's back edge (the edge by the display).
        translate([keypad_pos[0] + keypad[0] / 2 + ribbon_dx - ribbon_slot[0] / 2, keypad_pos[1] + keypad[1] - 0.5, -1])
            cube([ribbon_slot[0], ribbon_slot[1], lid_t + 2]);
        // Groove around the membrane.
        translate([0, 0, lid_t - groove[1]]) linear_extrude(groove[1] + 1) difference() {
            translate(keypad_pos - [clearance + groove[0], clearance + groove[0]])
                square([keypad[0] + 2 * (clearance + groove[0]), keypad[1] + 2 * (clearance + groove[0])]);
            translate(keypad_pos - [clearance, clearance]) square([keypad[0] + 2 * clearance, keypad[1] + 2 * clearance]);
        }
    }
}

module window() {
    hull() {
        translate([-oled_window[0] / 2, -oled_window[1] / 2, 0]) cube([oled_window[0], oled_window[1], 1 + 0.01]);
        translate([-oled_window[0] / 2 - lid_t, -oled_window[1] / 2 - lid_t, 1 + lid_t])
            cube([oled_window[0] + 2 * lid_t, oled_window[1] + 2 * lid_t, 1]);
    }
}

module rim() {
    h = 3;
    t = 1.6;
    o = wall + clearance;  // the rim's outside, from the outer edge
    skip = wall + post_d + 1;  // leave the corners to the posts
    translate([0, 0, -h]) {
        for (y = [o, outer[1] - o - t]) translate([skip, y, 0]) cube([outer[0] - 2 * skip, t, h]);
        for (x = [o, outer[0] - o - t]) translate([x, skip, 0]) cube([t, outer[1] - 2 * skip, h]);
    }
}

// -- stand-ins for the parts, for the assembly picture only --
module devkitc() {
    translate([devkit_pos[0], devkit_pos[1], devkit_z]) {
        color("#1b4f8a") cube(devkit);
        color("#c0c0c0") translate([devkit[0] - 25.5, (devkit[1] - 18) / 2, devkit[2]]) cube([19.5, 18, devkit_top - 0.8]);
        color("#202020") translate([devkit[0] - 25.5 - 0.1, (devkit[1] - 18) / 2, devkit[2]]) cube([25.5, 18, 0.8]);
        color("#9a9a9a") translate([-0.6, devkit[1] / 2 - 4, devkit[2]]) cube([5.6, 8, 2.8]);  // micro-USB
        color("#111111") for (y = [1.27, devkit[1] - 1.27]) for (i = [0:18])
            translate([3.2 + i * 2.54, y, -2.5]) translate([-1.27, -1.27, 0]) cube([2.54, 2.54, 2.5]);  // headers
    }
}

module oled() {
    translate([oled_c[0], oled_c[1], -oled_glass_h]) {
        color("#1f4fa0") translate([-oled_pcb[0] / 2, -oled_pcb[1] / 2, -oled_pcb[2]]) cube(oled_pcb);
        color("#101010") translate([-oled_glass[0] / 2, -oled_glass[1] / 2 + oled_window_dy - 1, 0]) cube([oled_glass[0], oled_glass[1], oled_glass_h]);
        color("#3fa9f5") translate([-21.7 / 2, -10.9 / 2 + oled_window_dy, oled_glass_h - 0.05]) cube([21.7, 10.9, 0.1]);
    }
}

module ky040() {
    translate([knob_c[0], knob_c[1], 0]) {
        color("#202020") translate([-ky040_body[0] / 2, -ky040_body[1] / 2, -ky040_body[2]]) cube(ky040_body);
        color("#1a1a1a") translate([-ky040_pcb[0] / 2 - ky040_shaft_dx, -ky040_pcb[1] / 2, -ky040_body[2] - ky040_pcb[2]]) cube(ky040_pcb);
        color("#b0b0b0") cylinder(d = bushing_d, h = lid_t + 2);
        color("#b0b0b0") translate([0, 0, lid_t]) cylinder(d = 11, h = 2, $fn = 6);  // nut
        color("#303030") translate([0, 0, lid_t + 3]) cylinder(d = knob[0], h = knob[1]);
        color("#e63946") translate([0, knob[0] / 2 - 2.5, lid_t + 3 + knob[1]]) cylinder(d = 1.6, h = 0.2);
    }
}

module membrane() {
    translate([keypad_pos[0], keypad_pos[1], lid_t]) {
        color("#2b2d42") cube(keypad);
        labels = ["*0#D", "789C", "456B", "123A"];
        for (r = [0:3], c = [0:3]) {
            key = labels[r][c];
            translate([6 + c * 15.5, 9 + r * 17, keypad[2]]) {
                color(c == 3 ? "#e63946" : "#edf2f4") cube([12, 12, 0.2]);
                color("#111111") translate([6, 6, 0.2]) linear_extrude(0.1) text(key, size = 6, halign = "center", valign = "center");
            }
        }
    }
}

module lid_assembly() {
    color("#f4a261") lid();
    oled();
    ky040();
    membrane();
}

if (view == "assembly") {
    color("#e9c46a") tray();
    devkitc();
    translate([0, 0, tray_h + explode]) lid_assembly();
} else if (view == "tray") {
    color("#e9c46a") tray();
} else if (view == "lid") {
    // As printed: top face on the bed, posts and standoffs up.
    color("#f4a261") translate([0, outer[1], lid_t]) rotate([180, 0, 0]) lid();
} else if (view == "print") {
    tray();
    translate([outer[0] + 10, outer[1], lid_t]) rotate([180, 0, 0]) lid();
}
