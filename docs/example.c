/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A program of chargesim's C library (issue 53): runs one request and prints
 * its table as CSV, the bytes `chargesim dice 2d6kh1+d6 --exact` prints.
 * Or: example CMD KEY=VALUE... (example run input=experiments/default.ini
 * method=exact): a KEY an option's name (method, trials, seed, distance, as
 * the Python module takes it) or a request key (experiment.method), any
 * other an override (--set KEY=VALUE). Build it against an install with
 *     cc example.c $(pkg-config --cflags --libs chargesim) -o example */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <chargesim/request.h>

int main(int argc, char **argv)
{
    if (cs_request_api_version() / 1000 != CHARGESIM_API_VERSION_MAJOR) {
        fprintf(stderr, "example: libchargesim's API is not version %d.x\n",
                CHARGESIM_API_VERSION_MAJOR);
        return 1;
    }
    cs_request *r = cs_request_new(argc > 1 ? argv[1] : "dice");
    if (!r) {
        fprintf(stderr, "example: no such command\n");
        return 2;
    }
    if (argc <= 1) {
        cs_request_set(r, "expr", "2d6kh1+d6");
        cs_request_set(r, "exact", "");
    }
    for (int i = 2; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (eq)
            *eq = '\0';
        /* An option's name is the key it sets (--method: experiment.method). */
        const char *key = cs_request_key_of(r, argv[i]);
        if (cs_request_set(r, key ? key : argv[i], eq ? eq + 1 : NULL) != CS_OK) {
            fprintf(stderr, "example: %s\n", cs_request_message(r));
            cs_request_free(r);
            return 2;
        }
    }
    int rc = 0;
    if (cs_request_run(r) != CS_OK) {
        fprintf(stderr, "example: %s\n", cs_request_message(r));
        rc = 2;
    }
    for (int i = 0; rc == 0 && i < cs_request_tables(r); i++) {
        long n = cs_request_table_text(r, i, "csv", NULL, 0);
        char *csv = n < 0 ? NULL : malloc((size_t)n + 1);
        if (!csv) {
            rc = 1;
            break;
        }
        cs_request_table_text(r, i, "csv", csv, (size_t)n + 1);
        fwrite(csv, 1, (size_t)n, stdout);
        free(csv);
    }
    cs_request_free(r);
    return rc;
}
