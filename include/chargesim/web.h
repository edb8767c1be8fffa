/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_WEB_H
#define CHARGESIM_WEB_H
/* The web edition's C side (issue 31): the functions the page's Web Worker
 * calls through emscripten. It sits beside the command line, on the request
 * layer (request.h), and never includes io's writers: the page's link is
 * mapped to a request, the same one the command it shows runs, so the
 * numbers are those of that command. (The Units tab's entry point, which
 * uses io's readers, is webunits.h.)
 *
 * A request is the pairs of the page's link, in order, on a handle the
 * caller holds (nothing of a link is kept here between calls):
 *   link = cs_web_begin("run" | "map" | "compare" | "dice")
 *   cs_web_pair(link, KEY, VALUE)...   decoded; what each means per command:
 *     run, map, compare  KEY=VALUE is `--set KEY=VALUE` (experiment.KEY for
 *                        [experiment]); success=LIST is --success
 *     map                x=LO..HI:STEP, y=LO..HI:STEP are --x and --y
 *     compare            b.KEY=VALUE is `--b KEY=VALUE`
 *     dice               expr=EXPR, trials=N (sample N rolls), seed=S
 *   json = cs_web_exec(link)             frees link
 *   cs_web_free(json)
 * and the result is JSON, the caller's (cs_web_free):
 * (written with jansson; the keys in this order or another)
 *   {"ok": true, "cmd", "command": the equivalent command line, "header":
 *    [...], "rows": [[...], ...] (the CSV the command writes, cell for
 *    cell), "columns": [{name, label, description, unit, kind}] (request.h:
 *    kind key, exact, estimate, interval, count, text), "method", "note" (how the numbers were obtained), "notice"
 *    (what the page did that the command line would not ask: rqmc), "warning",
 *    and for a map "grid": {nx, ny, x0, dx, y0, dy, charger_w, charger_d}}
 * or
 *   {"ok": false, "cmd", "command", "message": the error, "cli": the line the
 *    command line prints ("chargesim CMD: message"), "exit": its exit
 *    status, "field": the key at fault or null}.
 *
 * GSL is built for WebAssembly from Debian's source (scripts/web-libs.sh),
 * so the page runs what the command line's auto picks, rqmc included, with
 * the same numbers for the same seed; "notice" is null. A long run reports its
 * progress to JavaScript (Module.onProgress(done, total)); the page cancels
 * one by ending the worker. */
#include <stdbool.h>

/* A page's link, owned by the caller until cs_web_exec or cs_web_check. */
typedef struct cs_web_link cs_web_link;

/* Starts a link of command cmd; NULL when out of memory (cs_web_pair then
 * does nothing and cs_web_exec answers "out of memory"). */
cs_web_link *cs_web_begin(const char *cmd);
/* Adds one pair to link, in order. */
void cs_web_pair(cs_web_link *link, const char *key, const char *value);
/* Runs link's request and frees link: its JSON result (cs_web_free). */
const char *cs_web_exec(cs_web_link *link);
/* Checks link's request without running it (cs_request_check: read, built,
 * planned) and frees link, for the method field as the player edits the
 * form (issue 52): {"ok": true, "cmd", "command", "method": the method asked
 * (auto, mc, conditional, exact, rqmc), "resolved": the one a run would
 * take (auto decided; null when none can run it), "exact_available",
 * "trials", "rqmc_trials" (the trials rqmc takes, rounded up to a power of
 * two per replicate; 0 when resolved is not rqmc)} (null and no trials for
 * dice), or cs_web_exec's refusal. Quick: nothing is sampled. */
const char *cs_web_check(cs_web_link *link);
/* Every ruleset as JSON (webinfo.h), the caller's (cs_web_free). */
const char *cs_web_rulesets(void);
/* Frees an answer of cs_web_exec, cs_web_check, cs_web_rulesets or cs_web_units. */
void cs_web_free(const char *json);

#endif
