/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_WEBJOB_H
#define CHARGESIM_WEBJOB_H
/* One request of the web edition (web.h) as it runs: the overrides and
 * options its link gave, the command line they make, and what the run
 * gives back. web.c sorts a link's pairs into a job; webjob.c runs it as
 * the command line runs the same command, check for check. */
#include <stdbool.h>

#include "chargesim/entries.h"
#include "chargesim/error.h"
#include "chargesim/mapdraw.h"
#include "chargesim/table.h"

#define CS_WEBJOB_MAX_ARGS (4 * CS_ENTRIES_MAX_SETS + 16)

/* Overrides in order: "KEY=VALUE" texts (owned by the job's argv) and the
 * link pair each came from (-1: added by the page, not the link). */
typedef struct cs_websets {
    const char *text[CS_ENTRIES_MAX_SETS + 1];
    int pair[CS_ENTRIES_MAX_SETS + 1];
    int n;
} cs_websets;

/* An option's value (NULL: not given) and its pair in the link. */
typedef struct cs_webopt {
    const char *value;
    int pair;
} cs_webopt;

typedef struct cs_webjob {
    char cmd[16];
    char *argv[CS_WEBJOB_MAX_ARGS]; /* the command line after `chargesim CMD` (owned) */
    int argc;
    cs_websets a, b;               /* --set; compare's --b */
    cs_webopt success, x, y, expr, trials, seed;
    int field;                     /* the pair a refusal belongs to, or -1 */
    const char *field_name;        /* the field at fault when no pair is (a missing one), or NULL */
    bool oom, too_many;
    cs_error err;
    /* The result. */
    cs_table table;                /* the CSV the command writes */
    char method[16];
    char note[2048], notice[512], warning[512];
    bool has_map;
    cs_mapdraw map;                /* a map's picture (owned) */
} cs_webjob;

void cs_webjob_init(cs_webjob *j, const char *cmd);
void cs_webjob_free(cs_webjob *j);
/* Whether cmd is a command of the page: run, map, compare, dice. */
bool cs_webjob_known(const char *cmd);
/* Adds the word to the command line (a copy); false when out of room or memory. */
bool cs_webjob_word(cs_webjob *j, const char *w);
/* Runs the job: CS_OK with the result filled, or the status with j->err
 * (and j->field where a pair is at fault). */
cs_status cs_webjob_run(cs_webjob *j);

#endif
