#ifndef CHARGESIM_UNITS_H
#define CHARGESIM_UNITS_H
/* Unit sources for list-builders (issue 9): real unit profiles in, per-unit
 * charge odds out.
 *
 *   mapping  (experiments/mappings/<system>.ini, libinih)   which characteristic
 *            feeds which ruleset parameter, fixed parameters, the cost type
 *   sources  BattleScribe .cat/.gst (libxml2, src/io/units_bs.c) or a units
 *            CSV (libcsv, src/io/units_csv.c)  ->  cs_units: units + notes
 *   analysis (src/sim/units.c) per unit, through the ruleset interface at the
 *            exact head-on layout: p_success per distance, reach, +1 speed,
 *            metric means, points per inch
 *   writers  (src/io/units_out.c) CSV (libcsv quoting) or Markdown
 *
 * A unit lacking a value the mapping marks required, or holding one that does
 * not parse or that its profiles give twice with different text, is never
 * guessed: it is left out and a note says which unit and what is wrong.
 * Errors that stop a read (malformed XML or CSV, a broken link, a mapping
 * naming an unknown parameter) come back as CS_EINPUT with a message naming
 * the file, the line and the element or column, in a cs_error. */
#include <stdbool.h>
#include <stddef.h>

#include "chargesim/error.h"
#include "chargesim/ruleset.h"
#include "chargesim/status.h"
#include "chargesim/table.h"

#define CS_UNITS_MAX_CHARS 16  /* characteristic sections in one mapping */
#define CS_UNITS_MAX_FIXED 16  /* fixed parameters in one mapping */
#define CS_UNITS_MAX_METRICS 4 /* metrics a mapping reports per unit */
#define CS_UNITS_MAX_VALUES 24 /* parameter values one unit carries */
#define CS_UNITS_MAX_SETS 32   /* --set K=V pairs */
#define CS_UNITS_NAME 128      /* unit, catalogue and characteristic names */
#define CS_UNITS_TEXT 64       /* one value as written */
#define CS_UNITS_PATH 512
#define CS_UNITS_NOTE 320
#define CS_UNITS_MAX_GRID 400 /* distances in one table */

/* How a characteristic's text is read (mapping key `format`). */
typedef enum cs_units_format {
    CS_UNITS_INCHES,     /* 4"  4  4.5"  and the alternate forms 2" (9")  Ground 2", Fly 9" */
    CS_UNITS_TARGET,     /* a D6 score: 3+ or 3 */
    CS_UNITS_NUMBER,     /* a plain number: 8 */
    CS_UNITS_TEXT_AS_IS, /* handed to the parameter as written (dice, choices) */
} cs_units_format;

/* One `[characteristic NAME]` section: where a parameter's value comes from. */
typedef struct cs_units_char {
    char name[CS_UNITS_NAME];  /* the characteristic's name in the catalogue */
    char param[CS_UNITS_TEXT]; /* the ruleset parameter it feeds */
    cs_units_format format;
    bool required;                   /* a unit without it is skipped (else: incomplete) */
    bool alternate;                  /* take the bracketed value of `2" (9")` */
    char where_name[CS_UNITS_NAME];  /* only profiles whose characteristic where_name */
    char where_value[CS_UNITS_TEXT]; /* ... reads where_value ("" = every profile) */
} cs_units_char;

/* One mapping file. Texts are kept as written; cs_units_mapping_bind checks
 * them against the ruleset when the mapping is used. */
typedef struct cs_units_mapping {
    char path[CS_UNITS_PATH];
    char ruleset[CS_UNITS_TEXT];        /* [units] ruleset */
    char game_system_id[CS_UNITS_TEXT]; /* [units] game_system_id ("" = CSV only) */
    char cost[CS_UNITS_TEXT];           /* [units] cost: the cost type's name */
    char speed[CS_UNITS_TEXT];          /* [units] speed: the parameter +1 is tried on */
    char distance[CS_UNITS_TEXT];       /* [units] distance: the head-on gap parameter */
    char base[CS_UNITS_NAME];           /* [units] base: the base size characteristic */
    char range[CS_UNITS_TEXT];          /* [units] range: default distances, a..b[:step] */
    int n_metrics;
    char metric[CS_UNITS_MAX_METRICS][CS_UNITS_TEXT]; /* [units] metrics, comma separated */
    int n_fixed;
    char fixed_key[CS_UNITS_MAX_FIXED][CS_UNITS_TEXT]; /* [fixed] key = value */
    char fixed_val[CS_UNITS_MAX_FIXED][CS_UNITS_TEXT];
    /* [locked] key = reason: a fixed value that neither --set nor a unit's
     * own column may change, and why ("" = not locked). */
    char fixed_why[CS_UNITS_MAX_FIXED][CS_UNITS_NOTE];
    int n_chars;
    cs_units_char chars[CS_UNITS_MAX_CHARS];
    /* Filled by cs_units_mapping_bind: */
    const cs_ruleset *rs;
    int speed_param, distance_param;
    int metric_index[CS_UNITS_MAX_METRICS];
    int char_param[CS_UNITS_MAX_CHARS];
    int fixed_param[CS_UNITS_MAX_FIXED];
} cs_units_mapping;

/* Reads one mapping file. Unknown sections or keys, a missing [units]
 * ruleset, a bad format name: CS_EINPUT naming file:line. */
cs_status cs_units_mapping_load(const char *path, cs_units_mapping *out, cs_error *err);

/* Resolves the mapping's names against the ruleset table: the ruleset must
 * be built in, every parameter and metric must exist, fixed values must be
 * in the parameter's range. CS_EINPUT naming the mapping file otherwise. */
cs_status cs_units_mapping_bind(cs_units_mapping *m, cs_error *err);

/* The files of a directory whose names end in one of `suffixes` (NULL-
 * terminated), hidden ones aside, as dir/name in name order; *out is
 * malloc'ed (free()), each entry CS_UNITS_PATH long. */
cs_status cs_units_list_files(const char *dir, const char *const *suffixes,
                              char (**out)[CS_UNITS_PATH], int *n, cs_error *err);

/* Every *.ini of a directory, in name order. *out is malloc'ed (free()). */
cs_status cs_units_mapping_load_dir(const char *dir, cs_units_mapping **out, int *n, cs_error *err);

/* One value of a unit: a ruleset parameter and the text it came from. */
typedef struct cs_unit_value {
    int param;                /* index in the unit's ruleset parameter table */
    char text[CS_UNITS_TEXT]; /* the value as the experiment model reads it: 4 */
    char raw[CS_UNITS_TEXT];  /* as the source wrote it: 4" */
} cs_unit_value;

typedef struct cs_unit {
    char name[CS_UNITS_NAME];
    char id[CS_UNITS_TEXT];        /* the BattleScribe entry's id; "" for a CSV row */
    char catalogue[CS_UNITS_NAME]; /* catalogue name, or the CSV file's base name */
    char file[CS_UNITS_PATH];      /* where the unit is defined */
    int line;
    const cs_units_mapping *map; /* bound; gives the ruleset */
    bool has_points;
    double points;            /* BattleScribe: the smallest legal unit */
    char base[CS_UNITS_TEXT]; /* base size as written, "" if unknown */
    bool complete;            /* every mapped characteristic present */
    int n_values;
    cs_unit_value value[CS_UNITS_MAX_VALUES];
} cs_unit;

typedef enum cs_unit_note_kind {
    CS_UNIT_SKIPPED,    /* left out: a required value is missing, invalid or contradictory */
    CS_UNIT_INCOMPLETE, /* kept: an optional value is missing, invalid or contradictory */
    CS_UNIT_WARNED,     /* kept whole: one of several texts taken, the others words */
} cs_unit_note_kind;

typedef enum cs_unit_problem {
    CS_UNIT_MISSING,  /* the characteristic (column) is absent or `-` */
    CS_UNIT_INVALID,  /* present but not readable in its format or range */
    CS_UNIT_CONFLICT, /* several profiles give different values */
} cs_unit_problem;

typedef struct cs_unit_note {
    cs_unit_note_kind kind;
    cs_unit_problem problem;
    char name[CS_UNITS_NAME];
    char id[CS_UNITS_TEXT];   /* as in cs_unit */
    char file[CS_UNITS_PATH]; /* of the offending element or row */
    int line;
    char what[CS_UNITS_NOTE]; /* "lacks Adv", "Adv `3D6` is not a distance" */
} cs_unit_note;

/* A growing list of units and notes. Zero-initialise, then cs_units_free. */
typedef struct cs_units {
    cs_unit *unit;
    int n, cap;
    cs_unit_note *note;
    int n_notes, cap_notes;
} cs_units;

void cs_units_free(cs_units *u);

/* BattleScribe. `path` is a .cat (its .gst, the file in the same directory
 * whose root id is the catalogue's gameSystemId, is read for links) or a
 * .gst. Units are the selection entries of type unit or model not nested in
 * another such entry, defined in the file or reached from it by an entry
 * link outside any unit; each unit's profiles are its own, those its info
 * links point to, and those of its model children (nested, in groups, or
 * linked). `map` must be bound. Appends to `out`. */
cs_status cs_units_read_bs(const char *path, const cs_units_mapping *map, cs_units *out,
                           cs_error *err);

/* The gameSystemId of a .cat (or the id of a .gst), to pick a mapping. */
cs_status cs_units_bs_system(const char *path, char *id, size_t idcap, cs_error *err);

/* Units CSV: a header row, then one unit per row. Columns:
 *   name     required, the unit's name
 *   ruleset  the row's ruleset (may be left out when `rules` is given)
 *   points   optional, a number >= 0
 *   base     optional, base size WxD in mm (20x20, 25x50)
 *   any parameter of the row's ruleset, e.g. advance_rate, speed, hit
 * A cell may be empty or `-` (no value). A parameter the mapping feeds is
 * read in its format (3+ is 3; an inch mark needs CSV quoting, "4""", so 4
 * is simpler); any other is handed to the experiment model as written. The
 * file is strict CSV (libcsv CSV_STRICT): a stray quote is an error.
 * Each row's ruleset picks its mapping among `maps` (the one mapping that
 * names that ruleset; bound here), which says which parameters are required
 * and gives the fixed ones. */
cs_status cs_units_read_csv(const char *path, cs_units_mapping *maps, int n_maps, const char *rules,
                            cs_units *out, cs_error *err);

/* ---- shared by the readers (src/io/units_map.c) ------------------------- */

/* What a reader found for one mapped characteristic of one unit: the
 * distinct texts (trimmed) its profiles give, each with its line. */
#define CS_UNITS_FOUND 4 /* distinct texts kept; past that, only counted */
typedef struct cs_units_found {
    int n; /* distinct texts seen: 0 absent, 1, 2 or more (a conflict, unless
              all but one are words: see cs_units_settle) */
    char text[CS_UNITS_FOUND][CS_UNITS_TEXT]; /* the first CS_UNITS_FOUND of them */
    const char *file[CS_UNITS_FOUND]; /* NULL: the unit's own file; else must outlive settle */
    int line[CS_UNITS_FOUND];
} cs_units_found;

/* Records one text for a characteristic: a repeat of a known text is ignored. */
void cs_units_found_add(cs_units_found *f, const char *text, const char *file, int line);

/* Turns found[i] (one per map->chars[i]) into u's values, then appends u to
 * out when every required value is there (*kept = true), with a note when
 * something is missing, unreadable or contradictory, naming characteristics.
 * Several texts contradict each other unless exactly one of them holds a
 * digit: the others are words, no value at all (T9A's Mageblight Gremlins
 * give Adv `Standard`, a data-entry slip, beside `5"`); that one is taken
 * and a CS_UNIT_WARNED note names every line. Two texts with digits (`5"`
 * and `6"`) stay a conflict: which one holds is never guessed.
 * With `csv` the notes name columns (the parameters) and an unreadable value
 * is an error instead (CS_EINPUT, naming file:line and the column): a CSV is
 * written by its user, a catalogue is third-party data.
 * u->name, file, line, catalogue and map must be set. */
cs_status cs_units_settle(cs_units *out, cs_unit *u, const cs_units_found *found, bool csv,
                          bool *kept, cs_error *err);

/* Parses a characteristic's text in `format` into a number. Returns false
 * (with `why` set to a static reason) when it does not read; `*absent` is set
 * for "", "-" and "*" (the source's "none"). */
bool cs_units_parse_value(const char *text, cs_units_format format, bool alternate, double *num,
                          bool *absent, const char **why);

/* ---- analysis (src/sim/units.c) ---------------------------------------- */

/* The distances of a table: lo, lo + step, ..., up to hi (inclusive). */
typedef struct cs_units_grid {
    double lo, hi, step;
} cs_units_grid;

/* Parses "a..b" or "a..b:step" (step 1 by default), or one distance "a". */
cs_status cs_units_grid_parse(const char *text, cs_units_grid *g, cs_error *err);
int cs_units_grid_count(const cs_units_grid *g);
double cs_units_grid_at(const cs_units_grid *g, int i);

/* --set K=V pairs, applied to every unit whose ruleset has K. */
typedef struct cs_units_sets {
    int n;
    const char *key[CS_UNITS_MAX_SETS];
    const char *val[CS_UNITS_MAX_SETS];
} cs_units_sets;

#define CS_UNITS_N_REACH 3
extern const double cs_units_reach_levels[CS_UNITS_N_REACH]; /* 0.50, 0.75, 0.90 */

typedef struct cs_unit_result {
    double *p; /* p_success per grid distance (caller's array) */
    bool has_reach[CS_UNITS_N_REACH];
    double reach[CS_UNITS_N_REACH]; /* see cs_units_analyse */
    bool has_plus1;
    double plus1; /* mean rise of p_success with speed + 1 */
    bool has_metric[CS_UNITS_MAX_METRICS];
    double metric[CS_UNITS_MAX_METRICS]; /* E[metric | defined] at the first distance */
    bool has_ppi;
    double points_per_inch; /* points / reach at 75% */
} cs_unit_result;

/* Analyses one unit exactly at the head-on layout of its ruleset. Its
 * parameters are read by the experiment model (experiment.h, the parser of
 * `chargesim run`): ruleset defaults < mapping [fixed] < `sets` < the unit's
 * values, method exact. p[i] = p_success at grid distance i.
 * reach[k] = the largest grid distance d (the grid continued past hi while
 * needed) with p_success >= level k at every grid distance from lo to d;
 * absent when p_success(lo) < level. plus1 = the mean over the grid of
 * p_success(speed + 1) - p_success(speed); absent without a speed parameter
 * or when speed + 1 is out of its range. Metrics only for a complete unit.
 * out->p must hold cs_units_grid_count(g) doubles. CS_EINPUT (err names the
 * unit's file:line and the key) when a value does not read, the ruleset
 * rejects it, a --set sweeps or draws, or the layout is not fixed. */
cs_status cs_units_analyse(const cs_unit *u, const cs_units_sets *sets, const cs_units_grid *g,
                           cs_unit_result *out, cs_error *err);

/* Checks --set pairs against the units before any analysis: each key must
 * be a parameter of at least one unit's ruleset, neither its distance nor a
 * value a unit carries itself. CS_EINPUT naming the key otherwise. */
cs_status cs_units_check_sets(const cs_units *u, const cs_units_sets *sets, cs_error *err);

/* ---- the table (src/io/units_table.c) ----------------------------------- */

/* One row per unit: catalogue, name, ruleset, points, base, the parameter
 * values units carry (the union of their columns, in order of first
 * appearance), reach_50, reach_75, reach_90, plus1_speed,
 * points_per_inch_75, mean_<metric> for the mappings' metrics, then
 * p_<distance> per grid distance. CSV gives probabilities in [0, 1]; md and
 * tex give percentages, with `title` as heading. Absent values are empty
 * cells (CSV) or `-`. t is initialised here (cs_table_free). */
cs_status cs_units_table(const cs_units *u, const cs_unit_result *res, const cs_units_grid *g,
                         cs_format fmt, const char *title, cs_table *t);

#endif
