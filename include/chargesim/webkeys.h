/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_WEBKEYS_H
#define CHARGESIM_WEBKEYS_H
/* The JavaScript package's request keys (issue 53): a key as a caller of
 * cs.run({method: 'exact', trials: 1000, charge_speed: 3}) names it, made
 * the request's key through the command's option table, as the Python
 * module does with cs_request_key_of (reqapi.h): an option's name
 * ("method", "max_trials", "--method") is the key it sets
 * ("experiment.method"); any other key ("charge_speed", "b.move",
 * "experiment.seed") is the caller's as it is, which cs_web_pair then
 * takes as --set KEY=VALUE (web.h). So the package keeps no list of keys. */

/* The request key of name for command cmd: a static string of the option
 * table, or name itself when no option of cmd is called so (or cmd is no
 * command). */
const char *cs_web_key_of(const char *cmd, const char *name);

#endif
