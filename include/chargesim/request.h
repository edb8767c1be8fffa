/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_REQUEST_H
#define CHARGESIM_REQUEST_H
/* One request of chargesim, below every front end (issue 51): a command
 * and its parameters as keys and values, run once, its tables, notes,
 * method and warnings read back. The command line (src/cli), the page
 * (src/web) and the bindings are mappings to and from a request; none of
 * them runs a command's steps itself. A request reads its inputs through
 * io's readers and writes no file.
 *
 * The life of a request, as cmark's parser (an owned handle):
 *     cs_request *r = cs_request_new("run");
 *     cs_request_set(r, "input", "experiments/default.ini");
 *     cs_request_set(r, "distance", "1..12");          as --set distance=1..12
 *     cs_request_set(r, "experiment.trials", "1000");  as --trials 1000
 *     if (cs_request_run(r) == CS_OK)
 *         for (int i = 0; i < cs_request_tables(r); i++) ... cs_request_table(r, i)
 *     else ... cs_request_error(r)
 *     cs_request_free(r);
 *
 * Keys. Each command's keys are its options' (options.h: the table of each
 * command names the key each option sets) and its operand's: "input" (run,
 * map, compare, draw: the experiment file; "-", the default, for none),
 * "set" (a --set text K=V), "b" (compare's --b text), "success", "pivot",
 * "format" (csv, md, tex), "threads", "max_trials", "dist" (run: the
 * distributions too), "x", "y" (map), "expr", "trials", "seed",
 * "confidence", "exact" (dice), "source", "rules", "mapping", "catalogue",
 * "distance" (units), "name" (rules), "point", "trial" (draw). Any other
 * key K of run, map and compare is the override K=V, as --set K=V (a NULL
 * value: the text K alone, refused as --set refuses it); "b.K" is
 * compare's --b K=V. A value is checked when it is set where the command
 * line checks it at once (a number, a format); the rest when the request
 * runs, in the command line's order.
 *
 * Errors name the parameter at fault: cs_request_fault gives the index of
 * the cs_request_set call (0 for the first), or -1 with cs_request_fault_key
 * naming a missing one ("expr") or none.
 *
 * rerun runs the command a CSV's metadata records (csvwread.h), from the
 * recorded values alone: checked, the request is that command (run or
 * dice, its keys set from the recorded words, its equivalent command line
 * theirs), and its results are that command's. An error in the metadata
 * names its file (and line) and what is missing; the parameter at fault is
 * "metadata".
 *
 * In src/req/request.c; units' results in src/req/requnits.c, rules' and
 * draw's in src/req/reqshow.c, rerun's in src/req/reqrerun.c. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chargesim/error.h"
#include "chargesim/reqapi.h"
#include "chargesim/table.h"

/* Every function declared below is exported from libchargesim.so (reqapi.h). */
CS_API_BEGIN

/* An owned request. */
typedef struct cs_request cs_request;

/* A new request of command cmd (run, map, compare, dice, units, rules,
 * draw, rerun); NULL when out of memory or cmd is no command a request runs
 * (cs_request_known). */
cs_request *cs_request_new(const char *cmd);
/* Whether a request runs command cmd. */
bool cs_request_known(const char *cmd);
/* Frees r and everything it returned; NULL: nothing. */
void cs_request_free(cs_request *r);

/* Sets parameter key to value (copied). CS_OK, or the refusal (read it
 * with cs_request_error; the request then refuses to run). */
cs_status cs_request_set(cs_request *r, const char *key, const char *value);

/* The value key takes when no cs_request_set gives it, which the command
 * line it shows leaves out (units' "mapping": the folder a front end
 * finds; units' "data": the folder of shipped catalogues a roster's own is
 * looked for in when none is beside it). CS_OK, or CS_EINPUT for a key
 * that takes none. */
cs_status cs_request_default(cs_request *r, const char *key, const char *value);

/* Progress: fn(user, done, total) now and then from the running thread. */
void cs_request_on_progress(cs_request *r, void (*fn)(void *user, uint64_t done, uint64_t total),
                            void *user);

/* Cancel (run, map, compare): fn(user) non-zero stops the run at its next
 * safe point, and cs_request_run then returns CS_ESTOPPED. fn is called
 * from the worker threads: it must only read a flag. Not with a checkpoint
 * of the caller's attached (cs_request_run_opts): its sink decides then. */
void cs_request_on_cancel(cs_request *r, int (*fn)(void *user), void *user);

/* Checks the request without running it: reads the inputs, builds the
 * experiment(s) and plans the run. CS_OK or the refusal. Run calls it when
 * it was not called. */
cs_status cs_request_check(cs_request *r);
/* Runs the request (checked first if need be): CS_OK with its results, or
 * the status with cs_request_error (CS_ESTOPPED: stopped at a checkpoint's
 * signal, checkpoint.h). */
cs_status cs_request_run(cs_request *r);

/* The results, owned by r (a caller may add to a table's title and note). */
int cs_request_tables(const cs_request *r);
cs_table *cs_request_table(cs_request *r, int i);
/* The table that `name` names: "dist" (run's distributions), else NULL. */
cs_table *cs_request_named_table(cs_request *r, const char *name);
/* Column col of table i (cs_request_table): its name, label (a player's
 * words for it, short: "chance to charge", "reach 75%"; "" when none),
 * one-line description ("" when none), unit ("" when none) and kind: "key"
 * (what a row is about), "exact" or "estimate" (a number the run computed,
 * as its method was: exact, or sampled), "interval" (an end of a
 * confidence interval), "count", "text", or "" (not said). false past the
 * last. */
typedef struct cs_request_column {
    const char *name, *description, *unit, *kind, *label;
} cs_request_column;
bool cs_request_column_at(cs_request *r, int i, int col, cs_request_column *out);
/* The method that ran ("exact", "mc", ...); "" before a run. */
const char *cs_request_method(const cs_request *r);
/* The seed the numbers were drawn with into *seed: true when the run
 * sampled (any method but exact), false when its numbers were counted
 * exactly or before a run. */
bool cs_request_seed(const cs_request *r, uint64_t *seed);
/* How the numbers were obtained, one paragraph; "" when none. */
const char *cs_request_note(const cs_request *r);
/* compare's verdict in one sentence, the same words the command line
 * prints and the page shows ("B reaches more often at 6–10″ (+2.7 to +2.9
 * points at 8″, 95%); no difference detected at 4″."; include/chargesim/
 * cmpverdict.h); "" for the other commands and before a run. Since API
 * 0.2. */
const char *cs_request_verdict(const cs_request *r);
/* The precision warning (--precision stopped at its cap), or NULL. */
const char *cs_request_warning(const cs_request *r);
/* The error of the last call that failed (its key, detail: error.h). */
const cs_error *cs_request_error(const cs_request *r);
/* The parameter at fault: the index of its cs_request_set call, or -1. */
int cs_request_fault(const cs_request *r);
/* The key of a parameter at fault that was never set ("expr"), or NULL. */
const char *cs_request_fault_key(const cs_request *r);
/* The equivalent command line, `chargesim CMD ARGS` with the shell's
 * quoting, into buf (cap bytes). */
void cs_request_command_line(const cs_request *r, char *buf, size_t cap);
/* What the run said along the way, a line each (units: each note on a unit
 * left out or read with a warning, then the count line); 0 before its
 * source was read. */
int cs_request_said(const cs_request *r);
const char *cs_request_said_line(const cs_request *r, int i);
/* rules: the text it prints (the rulesets, or one ruleset's readings,
 * parameters, outcomes and measured quantities); "" for other commands. */
const char *cs_request_text(const cs_request *r);
/* draw: the trial's display list (drawing.h), which a renderer draws
 * (battlefield.h), and its title lines (*n_title of them); NULL for other
 * commands or before a run. */
struct cs_drawing;
const struct cs_drawing *cs_request_drawing(const cs_request *r, const char *const **title,
                                            int *n_title);
/* A map's grid: nx, ny, x0, dx, y0, dy, charger_w, charger_d into g[8];
 * false when the request made no map. */
bool cs_request_grid(const cs_request *r, double g[8]);

/* For the command line's files, which record where a table came from
 * (csvw.h) and draw a map's picture (heatmap.h): what the run used and
 * made. NULL before cs_request_check (the experiment) or cs_request_run. */
struct cs_experiment;
struct cs_run_result;
struct cs_map_result;
struct cs_run_opts;
/* The experiment (A's for compare), which the caller may annotate with
 * provenance between check and run. */
struct cs_experiment *cs_request_experiment(cs_request *r);
/* The run as the metadata reads it: run's result; for map and compare
 * their experiment and method. */
const struct cs_run_result *cs_request_run_result(const cs_request *r);
const struct cs_map_result *cs_request_map(const cs_request *r);
/* The options the run will take (planned by cs_request_check), so that a
 * checkpoint (checkpoint.h) is identified and attached to them; and the
 * map's own identity lines for it (NULL for other commands; owned by r). */
struct cs_run_opts *cs_request_run_opts(cs_request *r);
const char *cs_request_identity_extra(cs_request *r);
/* units: file i of those the table was made from (every source file read,
 * then each mapping used) with its SHA-256; false past the last. And each
 * ruleset with its edition or preset and its mapping, in one line; and the
 * units read (units.h). */
bool cs_request_input(const cs_request *r, int i, const char **path, const char **sha256);
const char *cs_request_about(const cs_request *r);
struct cs_units;
const struct cs_units *cs_request_units(const cs_request *r);
/* units, a roster: the id of the catalogue it names that was found neither
 * beside it nor in "data" ("" when one was, or it is no roster), so that a
 * front end holding more catalogues (the page's) may add it and run again. */
const char *cs_request_catalogue_wanted(const cs_request *r);
/* units: the game of mapping i among those loaded (its `game_system`, as
 * players name it; "" when it names none), NULL past the last; and the game
 * a roster names (its gameSystemName, "" for no roster). A front end that
 * refuses a game with no mapping (error key "mapping") names them. */
const char *cs_request_mapping_game(const cs_request *r, int i);
const char *cs_request_list_game(const cs_request *r);
/* rerun: reads the metadata (once; no run) and gives the command it
 * records, (*argv)[0] the command ("run" or "dice") then its arguments
 * without -o (a --dist CSV's last word "--dist"), and the provenance the
 * new table keeps (csvwread.h; zeroed for dice); owned by r. CS_OK, or the
 * refusal (cs_request_error). */
struct cs_csvw_remade;
cs_status cs_request_recorded(cs_request *r, int *argc, char *const **argv,
                              const struct cs_csvw_remade **remade);

CS_API_END

#endif
