/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_ROSTER_H
#define CHARGESIM_ROSTER_H
/* Rosters (io layer, a reader; issue 46): a player's own list, as the list
 * tools export it, read into the unit model of units.h so that `chargesim
 * units LIST` tables the units of that list. Three forms: `.ros` (XML in
 * BattleScribe's roster schema), `.rosz` (a zip holding one `.ros`, or
 * plain XML under that name) and New Recruit's JSON (the same tree, its
 * wrapper elements as arrays, a characteristic's text under "$text").
 *
 *   src/io/units/roster_zip.c   the container: a zip's one entry inflated in
 *                         memory by zlib (cs_roster_unpack); nothing is
 *                         ever written to disk
 *   src/io/units/roster_json.c  New Recruit's JSON (jansson) turned into the XML
 *                         tree the XML form gives (libxml2), so one walk
 *                         reads both
 *   src/io/units/roster.c       the roster opened, its mapping and catalogue, its
 *                         forces and selections walked for units
 *   src/io/units/roster_unit.c  one unit: its models, points, mount, rules and
 *                         profile texts, handed to stage 3 of unitsrc.h
 *                         (cs_units_settle)
 *
 * src/io/units/roster_doc.h holds what these files share (io only). A reader
 * only: no function here writes a file, so the web edition may
 * compile it. Errors come back as CS_EINPUT (CS_ELIMIT past a bound) with
 * one message naming the file, in a cs_error. */
#include <stdbool.h>
#include <stddef.h>

#include "chargesim/error.h"
#include "chargesim/status.h"
#include "chargesim/units.h"

/* The largest roster document read (16 MiB), inflated or not: real exports
 * are 10 to 200 KiB. A zip entry claiming more, or inflating past what it
 * claims, is refused before anything past the bound is inflated (a zip
 * bomb). */
#define CS_ROSTER_MAX_BYTES ((size_t)16 << 20)

/* What the heading of a roster's table names. */
typedef struct cs_roster_info {
    char name[CS_UNITS_NAME];        /* the list's name (roster name) */
    char system[CS_UNITS_NAME];      /* gameSystemName */
    char system_id[CS_UNITS_TEXT];   /* gameSystemId */
    char generated_by[CS_UNITS_NAME]; /* New Recruit's generatedBy, "" if none */
    bool has_points;
    double points;                   /* the roster's total of the mapping's cost */
    char cost[CS_UNITS_TEXT];        /* that cost's name as the roster gives it */
    char catalogue[CS_UNITS_PATH];   /* the catalogue looked up, "" when none was at hand */
    char catalogue_wanted[CS_UNITS_TEXT]; /* none at hand and none given: the first force's
                                           * catalogueId, which the page fetches among
                                           * the catalogues it ships; else "" */
} cs_roster_info;

/* Does `path` name a roster by its suffix (.ros, .rosz, .json)? */
bool cs_roster_is(const char *path);

/* The roster document in a file's bytes (src/io/units/roster_zip.c). A zip (its
 * local header's signature) must hold exactly one entry, not encrypted,
 * stored or deflated, claiming at most CS_ROSTER_MAX_BYTES in the central
 * directory, whose sizes are read (an entry written with a data descriptor
 * has 0 in its local header); it is inflated in memory and its CRC-32
 * checked. Anything else is the document itself (a `.rosz` that is plain
 * XML). *out is malloc'ed (free()), NUL-terminated, *out_n bytes without
 * the NUL. `path` names the file in messages. */
cs_status cs_roster_unpack(const unsigned char *data, size_t n, const char *path,
                           unsigned char **out, size_t *out_n, cs_error *err);

/* Stages 1 to 3 of unitsrc.h for a roster: reads `path` (any of the three
 * forms, by content: JSON starts with `{`), takes the mapping among `maps`
 * whose game_system_id is the roster's gameSystemId (`rules` chooses among
 * several; bound here), and appends one unit per unit selection to `out`,
 * with notes. `catalogue`: the catalogue to look entries up in, or NULL to
 * find it beside the roster (the .cat whose id is a force's catalogueId),
 * else in `data_dir` or its subfolders (the shipped data/; NULL: not
 * looked for); none found is no error, and info->catalogue_wanted names the
 * id that was looked for. A roster of a system no mapping
 * covers: CS_EINPUT naming the system and the systems covered. *info is
 * filled. */
cs_status cs_roster_read(const char *path, cs_units_mapping *maps, int n_maps, const char *rules,
                         const char *catalogue, const char *data_dir, cs_units *out,
                         cs_roster_info *info, cs_error *err);

#endif
