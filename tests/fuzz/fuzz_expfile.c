/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: an experiment file with --set overrides, through to a
 * short run (issue 18). The input is the INI text, optionally followed by a
 * line "#--set" and one override per line (as `--set` takes them). A loaded
 * experiment of at most a few sweep points is run with a few hundred trials
 * on one thread; any status is fine, a crash or sanitizer report is not. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/expfile.h"
#include "chargesim/sched.h"
#include "fuzz.h"

#define MAX_SETS 8
#define MAX_POINTS 8

/* Splits the overrides off the input; returns their count. */
static int split_sets(char *text, char **sets)
{
    char *mark = strstr(text, "#--set");
    if (!mark)
        return 0;
    *mark = '\0';
    int n = 0;
    char *save = NULL;
    for (char *line = strtok_r(mark + 6, "\n", &save); line && n < MAX_SETS - 2;
         line = strtok_r(NULL, "\n", &save))
        sets[n++] = line;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 16384)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *sets[MAX_SETS];
    int n = split_sets(text, sets);
    /* Bounded work for the fuzzer: a short run, no adaptive rounds. */
    sets[n++] = "experiment.trials=300";
    sets[n++] = "experiment.precision=0";

    char path[64];
    int fd;
    if (!fuzz_file((const uint8_t *)text, strlen(text), "exp.ini", path, sizeof path, &fd)) {
        free(text);
        return 0;
    }
    cs_experiment e;
    cs_error err;
    if (cs_expfile_load(path, (const char *const *)sets, n, &e, &err) == CS_OK) {
        if (e.n_points <= MAX_POINTS) {
            cs_run_opts opts = {.threads = 1, .want_dist = true};
            cs_run_result r;
            if (cs_sched_run(&e, &opts, &r, &err) == CS_OK)
                cs_sched_result_free(&r);
        }
        cs_experiment_free(&e);
    }
    fuzz_file_close(fd);
    free(text);
    return 0;
}
