#ifndef CHARGESIM_SVG_H
#define CHARGESIM_SVG_H
/* One trial's battlefield as an SVG picture (issue 3, `chargesim draw`):
 * units with their front edges marked, the target's arcs, the charge path,
 * terrain. SVG is written directly, no library. */
#include <stdio.h>

#include "chargesim/geom.h"
#include "chargesim/scenario.h"
#include "chargesim/status.h"

/* What the ruleset resolved on this layout, all optional. */
typedef struct cs_svg_path {
    const cs_snake *snake;   /* the charge path: drawn as the track of the
                                charger's front-edge centre (forward, wheel
                                arc, forward) with its outline where the
                                wheel starts and at contact; NULL: none */
    const cs_rect *aligned;  /* the charger after the align move; NULL: none */
    double los_arc;          /* > 0: the charger's field of view (geom.h) of
                                this total angle, in degrees */
    const char *title;       /* a caption (ruleset, outcome...); NULL: none */
} cs_svg_path;

/* Writes a complete SVG document to out: 1 inch = 20 px, y up as in the
 * scenario frame, a 1-inch grid. The charger is blue, the target red,
 * other enemies orange, friends green; terrain: blocking (sight only)
 * light grey, impassable (movement only) brown, solid (both) dark grey;
 * every unit's front edge is a thick line. The target's arcs are its four
 * corner rays, dashed. path may be NULL. Returns CS_ERUNTIME when writing
 * fails (out's error flag). */
cs_status cs_svg_write(FILE *out, const cs_scenario *s, const cs_svg_path *path);

#endif
