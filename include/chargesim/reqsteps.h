/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_REQSTEPS_H
#define CHARGESIM_REQSTEPS_H
/* Inside a request (request.h): the handle's fields, which request.c
 * (the keys, the results) and the steps share, and nothing outside src/req
 * reads. The steps are the command line's, in its order: what cmd_*.c ran
 * before issue 51, written once: src/req/reqsteps.c (run, map, compare,
 * dice), src/req/requnits.c (units: the stages of unitsrc.h),
 * src/req/reqshow.c (rules' text, draw's display list) and
 * src/req/reqrerun.c (rerun: the metadata read). */
#include <stdbool.h>
#include <stdint.h>

#include "chargesim/compare.h"
#include "chargesim/csvwread.h"
#include "chargesim/entries.h"
#include "chargesim/map.h"
#include "chargesim/options.h"
#include "chargesim/replay.h"
#include "chargesim/request.h"
#include "chargesim/roster.h"
#include "chargesim/sched.h"
#include "chargesim/unitsrc.h"

#define CS_REQ_MAX_SETS CS_ENTRIES_MAX_SETS
#define CS_REQ_MAX_PARAMS (2 * CS_ENTRIES_MAX_SETS + 16)
#define CS_REQ_MAX_TRIALS CS_SCHED_MAX_TRIALS
#define CS_REQ_DICE_MAX_TRIALS 1000000000000ULL /* CS_DICE_MAX_TRIALS (dicereport.h) */

/* The overrides of one variant, in order: each text and the parameter it
 * came from. */
typedef struct cs_req_sets {
    const char *text[CS_REQ_MAX_SETS];
    int pair[CS_REQ_MAX_SETS];
    int n;
} cs_req_sets;

/* Keys kept as text, by the parameter that set them last. */
typedef enum cs_req_slot_id {
    CS_REQ_INPUT, CS_REQ_SUCCESS, CS_REQ_PIVOT, CS_REQ_X, CS_REQ_Y, CS_REQ_EXPR, CS_REQ_DIST,
    CS_REQ_SOURCE, CS_REQ_RULES, CS_REQ_MAPPING, CS_REQ_CATALOGUE, CS_REQ_DISTANCE,
    CS_REQ_NAME, CS_REQ_DATA, CS_REQ_METADATA, CS_REQ_SLOTS
} cs_req_slot_id;

/* What units' stages make, freed together. */
typedef struct cs_req_units {
    cs_units_mapping *maps;
    int n_maps;
    cs_units_sets sets;  /* --set K=V, cut into the request's copies */
    cs_units units;      /* stages 1 to 3 */
    cs_units_grid g;     /* the table's distances */
    cs_unit_result *res; /* stage 4, one per unit */
    double *p;           /* their p_success columns */
    cs_roster_info roster; /* what a roster's heading names */
    bool read;           /* the source was read: its notes are said */
    char about[8192];    /* each ruleset with its edition or preset and mapping */
    char **line;         /* the notes, then the count line */
    int n_lines;
} cs_req_units;

struct cs_request {
    char cmd[16];
    const cs_opt_table *opts_table;
    /* The parameters in the order set; text: an override's text, or NULL. */
    char *key[CS_REQ_MAX_PARAMS], *value[CS_REQ_MAX_PARAMS], *text[CS_REQ_MAX_PARAMS];
    int n;
    cs_req_sets a, b;            /* the overrides (--set, --trials...) and compare's B's */
    int slot[CS_REQ_SLOTS];      /* the parameter of each slot, or -1 */
    char *slot_default[CS_REQ_SLOTS]; /* cs_request_default's, or NULL */
    const char *input;           /* "-" */
    cs_format fmt;
    int threads;
    uint64_t max_trials;
    uint64_t trials, seed;       /* dice */
    double confidence;
    bool exact;
    const char *sampling_only;   /* dice: the option that means nothing without --trials */
    int sampling_pair;
    void (*progress)(void *user, uint64_t done, uint64_t total);
    void *progress_user;
    int (*cancel)(void *user);
    void *cancel_user;
    struct cs_ckpt *cancel_ck;   /* the run's stop, when cancel is given and no checkpoint */
    /* State. */
    bool refused, checked, ran;
    cs_error err;
    int fault;                   /* the parameter at fault, or -1 */
    const char *fault_key;       /* a missing one's key, or NULL */
    /* What the steps build and make. */
    cs_experiment ea, eb;
    bool has_a, has_b;
    cs_run_opts opts;
    cs_map_axis ax, ay;
    char *extra;                 /* map: the checkpoint identity's axes */
    cs_run_result res;
    bool has_res;
    cs_map_result map;
    bool has_map;
    cs_cmp_result cmp;
    bool has_cmp;
    cs_run_result made;          /* what metadata reads: res, or map's and compare's exp */
    cs_table *tables;
    int n_tables;
    cs_table dist;
    bool has_dist;
    char method[16], note[2048], warning[512];
    char verdict[1024];          /* compare: its verdict in one sentence (cmpverdict.h) */
    uint64_t cap;                /* the trial cap --precision ran under */
    bool has_grid;
    double grid[8];
    cs_req_units u;              /* units */
    cs_text text_out;            /* rules: what it prints */
    uint64_t point, trial;       /* draw: the trial drawn */
    struct cs_drawing *drawing;  /* draw: its display list */
    char title[3][CS_REPLAY_TITLE_LINE];
    const char *title_line[3];
    int n_title;
    /* rerun: the command the metadata records and its provenance; the
     * request runs as that command from its first recorded pair on. */
    char **rerun_argv;
    int rerun_argc;
    cs_csvw_remade remade;
    bool rerun_read;
    int recorded_from;           /* the index of the first recorded pair */
};

/* A slot's text ("" for a key given without a value), or NULL when unset;
 * CS_REQ_INPUT defaults to "-". */
static inline const char *cs_req_slot(const cs_request *r, cs_req_slot_id s)
{
    int i = r->slot[s];
    if (i < 0)
        return r->slot_default[s] ? r->slot_default[s] : s == CS_REQ_INPUT ? r->input : NULL;
    return r->value[i] ? r->value[i] : "";
}
/* The command's checks (the experiment(s) built, the options read against
 * them, the run planned) and its run (the engine, the tables, the note). */
cs_status cs_req_steps_check(cs_request *r);
cs_status cs_req_steps_run(cs_request *r);
/* The request's tables made again in format fmt from what its run made
 * (the run is not repeated; sampled dice are drawn again from their seed):
 * *n of them into *t, the caller's to free (cs_table_free each, then *t). */
cs_status cs_req_steps_tables(cs_request *r, cs_format fmt, cs_table **t, int *n);
/* Frees what the steps built and made. */
void cs_req_steps_free(cs_request *r);
/* units' steps (requnits.c): the stages read, checked, analysed and
 * tabulated in one go; what they made freed. */
cs_status cs_req_units_run(cs_request *r);
void cs_req_units_free(cs_request *r);
/* units' table in format fmt from the analysis made (requnits.c). */
cs_status cs_req_units_table(cs_request *r, cs_format fmt, cs_table *out);
/* rules' text and draw's display list (reqshow.c). */
cs_status cs_req_rules_run(cs_request *r);
cs_status cs_req_draw_run(cs_request *r);
/* rerun's metadata read, once (reqrerun.c), and what it read freed. */
cs_status cs_req_rerun_read(cs_request *r);
void cs_req_rerun_free(cs_request *r);

#endif
