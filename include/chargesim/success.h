/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_SUCCESS_H
#define CHARGESIM_SUCCESS_H
/* --success (src/sim/model/success.c): the outcomes of a ruleset that p_success
 * counts, as a mask of outcome indices (cs_run_opts.success_mask; 0 stands
 * for the ruleset's own success_mask). */
#include <stddef.h>

#include "chargesim/error.h"
#include "chargesim/ruleset.h"

/* --success OUTCOME[,OUTCOME...]: the mask of those outcomes of rs. An
 * unknown name is CS_EINPUT with a message listing the valid ones. */
cs_status cs_success_parse(const cs_ruleset *rs, const char *list, unsigned *mask, cs_error *err);
/* The names of mask's outcomes joined by ',' into buf. */
void cs_success_names(const cs_ruleset *rs, unsigned mask, char *buf, size_t cap);

#endif
