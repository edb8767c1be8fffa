/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_WEBINFO_H
#define CHARGESIM_WEBINFO_H
/* What the web edition's page knows of the rulesets, asked of the C core
 * so that the page repeats none of it: for each ruleset its name, summary
 * and documented readings; each parameter's key, type, default, unit,
 * range, accepted values (as `chargesim rules` writes them), help and
 * flags (drawn per trial, an assumption); the outcomes, the success set and
 * the measured quantities; whether it has a threat map and exact
 * probabilities. The methods and each command's form fields come with it:
 * the options of its table (options.h) that are fields of the page, with
 * their defaults (a fresh experiment's for the experiment's keys). */

/* The description as one JSON object (malloc'ed text; NULL when out of
 * memory). */
char *cs_webinfo_json(void);
/* The form fields of the command whose option table is t, as the JSON
 * array cs_webinfo_json gives for it under "settings" (malloc'ed text). */
struct cs_opt_table;
char *cs_webinfo_fields(const struct cs_opt_table *t);

#endif
