/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_WEBUNITS_H
#define CHARGESIM_WEBUNITS_H
/* The web edition's Units tab (issue 44): `chargesim units SOURCE
 * [--distance A..B] [--rules NAME]` run in the page by io's units readers
 * (src/io/units_*.c, compiled into the WebAssembly), on files the page put
 * into emscripten's in-memory file system with the repository's relative
 * paths (data/tow/Bretonnians.cat, experiments/mappings/tow.ini), so the
 * notes read as those of the command line run from the repository's root.
 *
 * cs_web_units(source, distance, rules) (distance and rules NULL or "" for
 * the command line's default) returns JSON, the caller's (cs_web_free, web.h):
 *   {"ok": true, "cmd": "units", "command": the equivalent command line,
 *    "header": [...], "rows": [[...], ...] (the CSV `chargesim units`
 *    writes, cell for cell), "notes": [each line the command line prints on
 *    standard error, "chargesim units: FILE:LINE: unit `NAME` left out: ..."],
 *    "summary": its last line ("N units in the table, ...")}
 * or
 *   {"ok": false, "cmd": "units", "command", "message", "cli": the line the
 *    command line prints ("chargesim units: message"), "exit", and "notes"
 *    and "summary" when the source was read (a table with no row is refused,
 *    as the command line refuses to write one)}.
 * The table's answer has "row_kind": each row's second-row label (`flying`,
 * "" for a unit's own row; units.h), and "about": each ruleset with its
 * edition or preset and mapping ("generic preset tow, mapping tow.ini"). A refusal of a game no mapping covers
 * (error key "mapping") has "player": the refusal in a player's words (the
 * games with unit tables, and the Run tab's games without: no option, id or
 * path), with those as lists, "games" and "run_games".
 * Either form has "catalogue_wanted": a catalogueId when the source is a
 * roster whose catalogue was neither beside it nor in CS_WEB_DATA (the
 * page then fetches the army it ships under that id and runs once more). */

/* The mapping folder the page reads: the repository's, at the root of the
 * in-memory file system (a dropped file runs in a folder of its own). */
#define CS_WEB_MAPPINGS "/experiments/mappings"
/* The shipped catalogues in the page's file system (data/tow, ...: those
 * the page has fetched), where a dropped roster's catalogue is looked for
 * when none was dropped beside it. */
#define CS_WEB_DATA "/data"

const char *cs_web_units(const char *source, const char *distance, const char *rules);
/* Its answer when there is no memory for one, which cs_web_free keeps. */
extern const char cs_web_units_oom[];

#endif
