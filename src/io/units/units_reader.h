/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_UNITS_READER_H
#define CHARGESIM_UNITS_READER_H
/* The state of stage 2's BattleScribe reader, private to the io layer's
 * unit stages: src/io/units/units_resolve.c walks the documents and gathers a
 * unit's profiles and mounts into it; src/io/units/units_rows.c turns what was
 * gathered into rows (a mount's troop type, a flier's second row) and
 * hands them to stage 3. units_rows.c calls nothing of units_resolve.c.
 * The roster reader (src/io/units/roster_unit.c) makes its rows here too, from
 * a roster's selections instead of a catalogue's entries. */
#include <libxml/tree.h>
#include <stdbool.h>

#include "chargesim/unitsrc.h"

#include "units_cond.h"
#include "units_doc.h"
#include "units_attr.h"

/* A chosen mount's levels: its own profiles, then those of the mounts it
 * must take itself (a chariot's steeds), ... */
#define MOUNT_LEVELS 4

/* Profiles gathered for a unit or a mount, each with the info link that
 * brought it (NULL: the entry's own), whose modifiers may append to its
 * name (Fly + "(10)"). The <rule>s its rule links point to are among them,
 * for their names: they hold no characteristic. */
typedef struct proflist {
    const xmlNode **p, **via;
    int n, cap, cap_via;
    /* Mapped rules or characteristics whose hidden state a condition the
     * row cannot decide would change (units_cond.h): the row's note. */
    char unsure[CS_UNITS_NOTE];
} proflist;

/* A mount met among a unit's models (an entry whose subType is the
 * mapping's mount_type): required when the unit must take it (a min
 * selections >= 1 on its link or entry: Knights Errant's warhorses),
 * in_choice when it sits in a group the unit must choose one from. */
typedef struct mount {
    const xmlNode *link, *entry;
    bool required, in_choice;
    cs_units_chain above; /* the row's selections above it (hidden links) */
    /* Hidden unless a condition the row cannot decide holds (an option the
     * rider takes, the army's composition): offered all the same, a choice
     * a list may make, and this names the condition on its rows. */
    char unsure[CS_UNITS_NOTE];
} mount;

typedef struct mounts {
    mount *m;
    int n, cap;
} mounts;

typedef struct reader {
    cs_units_docs docs; /* the file read and its game system */
    const cs_units_mapping *m;
    cs_units *out;
    char catalogue[CS_UNITS_NAME];
    cs_error *err;
    cs_units_nodes seen;     /* units read and link targets walked */
    cs_units_nodes children; /* entries an entry link inside a unit points to: its models */
    cs_units_memo memo;      /* entries resolved for the unit being read */
    cs_units_nodes opts;     /* link targets looked through for the unit's options */
    proflist *prof; /* where the profiles met go: the unit's own, or a mount's */
    cs_units_chain chain; /* the selections from the unit to the entry being read */
    mounts *mounts; /* where the mounts met go (mount_type) */
} reader;

static inline const char *path_of(const reader *r, const xmlNode *n)
{
    return cs_units_docs_path(&r->docs, n);
}

/* What a unit is before its mount: its own profiles, its values' texts in
 * them and in its options, its points. */
typedef struct base_unit {
    cs_unit u;
    const xmlNode *node; /* its entry */
    proflist own;
    cs_units_found found[CS_UNITS_MAX_CHARS];
    cs_units_found opt[CS_UNITS_MAX_CHARS];
} base_unit;

/* ---- rows (src/io/units/units_rows.c) ---------------------------------------- */

/* A row's name: the unit's, then in brackets its mount choice (`on Royal
 * Pegasus`, or a label such as `on foot`; "" none) and a second row's label
 * (`flying`; "" none). */
void cs_units_row_name(char *out, size_t cap, const base_unit *b, const char *label, int n_sel,
                       const char *extra);

/* Appends "; " and a formatted part to a row's note (cut short at its
 * end: a long file name shortens the note, never refuses the row). */
void cs_units_row_note(cs_unit *u, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Rule k's number for a row (`Fly (10)`: "10"), from the mount levels
 * first (n_lv of them), then the unit's own profiles; the words after it
 * in rest, the file:line it is written at in at. */
bool cs_units_row_number(const reader *r, const base_unit *b, const proflist *level, int n_lv,
                         int k, char *num, char *rest, char *at);

/* The note of row u for each rule with a row that it has but gives no
 * number for (`Fly` alone): no second row for it. */
void cs_units_row_unnumbered(const reader *r, const base_unit *b, const proflist *level,
                             int n_lv, cs_unit *u);

/* The second rows of one row u (its texts `found`, its mount levels): for
 * each rule with a row that it has, one at the rule's number; on foot, one
 * per optional upgrade named after such a rule (its cost added); for each
 * alternate_row characteristic written in a flier's form, one at its
 * alternate value; on foot, for each rule with `option = row` that it
 * lacks, one (and its flying twin) per upgrade granting it. Each is
 * settled (stage 3). */
cs_status cs_units_flying_rows(reader *r, const base_unit *b, const cs_unit *u,
                               const cs_units_found *found, const proflist *level, int n_lv,
                               const char *label, int n_sel);

/* A chosen mount's troop type into u->type: its own profile's (level, the
 * mount's profiles), else a category of the choice that names one, else
 * "not given", with a note. */
void cs_units_mount_type(reader *r, const mount *mt, const proflist *level, cs_unit *u);

#endif
