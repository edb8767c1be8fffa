/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_UNITS_COND_H
#define CHARGESIM_UNITS_COND_H
/* Hidden links and their conditions, private to the io layer's unit stages
 * (src/io/units/units_cond.c): whether a profile, info link or info group
 * that a catalogue hides (hidden="true") is shown for one row, as
 * BattleScribe shows it, from the modifiers that set its `hidden` field
 * under conditions. A row knows only its own selections (the chain of
 * entries from the unit down to the one holding the element, the mount the
 * row chose among them), so only conditions on those are decided; any other
 * (scope force or roster, a count of options) is undecided: the element
 * stays hidden and the row says so. Also the rules naming a mount group and
 * a mount category (units_resolve.c and roster_unit.c share them). */
#include <libxml/tree.h>
#include <stdbool.h>
#include <stddef.h>

#include "chargesim/units.h"

#include "units_doc.h"

/* One selection of a row: an entry and the link that chose it (NULL: the
 * entry itself, nested). */
typedef struct cs_units_sel {
    const xmlNode *entry, *link;
} cs_units_sel;

/* A row's selections from the unit (s[0]) down to the entry holding the
 * element asked about (s[n-1]: "self"). */
#define CS_UNITS_CHAIN 16
typedef struct cs_units_chain {
    cs_units_sel s[CS_UNITS_CHAIN];
    int n;
    /* s[0] is a shared entry that no root entry link of the catalogue
     * selects: the categories such a link would give it are unknown. */
    bool unlinked;
} cs_units_chain;

typedef enum cs_units_shown {
    CS_UNITS_SHOWN,     /* visible, or un-hidden by conditions the row meets */
    CS_UNITS_HIDDEN,    /* hidden, and no condition the row meets shows it */
    CS_UNITS_UNDECIDED, /* hidden: a condition that would show it is not decided */
    CS_UNITS_UNSURE,    /* visible: a condition that would hide it is not decided */
} cs_units_shown;

/* Element n (a <profile>, <infoLink>, <infoGroup>) for the row's chain c.
 * An element whose state a condition not decided would change keeps the
 * state it is written with (hidden="true": hidden), and `why` (cap bytes)
 * names the first condition not decided and its line. */
cs_units_shown cs_units_shown_for(const cs_units_docs *d, const cs_units_chain *c,
                                  const xmlNode *n, char *why, size_t cap);

/* Pushes a selection (false: the chain is full, nothing pushed). */
bool cs_units_chain_push(cs_units_chain *c, const xmlNode *entry, const xmlNode *link);

/* Does a group named `name` hold mounts: the mapping's mount_group, case
 * aside, or its plural (an `s` added: The Old World's Wood Elves keep
 * their Great Eagle in a group named "Mounts")? */
bool cs_units_mount_group_name(const cs_units_mapping *m, const char *name);

/* Does holder h (an entry, or the link choosing it; NULL: no) file it
 * under a category named as the mount group (its categoryLinks, names
 * looked up in d)? Grand Cathay links the Sky Lantern into its Lord
 * Magistrate under the category MOUNT, the game system's own marker. */
bool cs_units_mount_category(const cs_units_docs *d, const cs_units_mapping *m,
                             const xmlNode *h);

#endif
