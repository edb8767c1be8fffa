/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_EXPERIMENT_INTERNAL_H
#define CHARGESIM_EXPERIMENT_INTERNAL_H
/* Shared by experiment.c (the model) and experiment_value.c (the value
 * syntax); not part of the public interface. */
#include <stdbool.h>
#include <stddef.h>

#include "chargesim/experiment.h"

/* Values one sweep may take (a..b:step or a list). */
#define CS_EXPERIMENT_MAX_SWEEP 100000

/* A malloc'd copy of s[0..len) without its leading and trailing blanks. */
char *cs_experiment_trimmed(const char *s, size_t len);
/* A whole finite number (blanks around it allowed). */
bool cs_experiment_parse_double(const char *s, double *out);
/* Parses raw, the value of parameter def of ruleset `ruleset` (its name)
 * as written, into v: a fixed value, a sweep, a list or a draw. `at`
 * ("FILE:LINE" or "command line") starts every refusal, which names the
 * key (and the ruleset where the refusal points at its rules). */
cs_status cs_experiment_parse_value(const cs_param_def *def, const char *ruleset, const char *raw,
                                    cs_value_spec *v, const char *at, cs_error *err);

#endif
