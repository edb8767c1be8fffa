/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The request API's library calls (include/chargesim/reqapi.h, issue 53):
 * a table's cells and text as the formatter gives them, the text's length
 * contract, an option's key, a cancel flag, the last error's words and the
 * version. tests/library.sh checks the shared library itself (its exported
 * names, a program built against an install); tests/python the module. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/request.h"
#include "chargesim/tablefmt.h"

/* dice 2d6 --exact, run. */
static cs_request *dice_2d6(void)
{
    cs_request *r = cs_request_new("dice");
    cr_assert(r);
    cr_assert_eq(cs_request_set(r, "expr", "2d6"), CS_OK);
    cr_assert_eq(cs_request_set(r, "exact", ""), CS_OK);
    cr_assert_eq(cs_request_run(r), CS_OK, "%s", cs_request_message(r));
    return r;
}

Test(reqapi, cells_and_text_are_the_formatters)
{
    cs_request *r = dice_2d6();
    /* 2d6: the totals 2..12, 11 rows; 7 in 6 of the 36 rolls. */
    cr_assert_eq(cs_request_table_rows(r, 0), 11);
    cr_assert_str_eq(cs_request_table_cell(r, 0, 5, 0), "7");
    cr_assert_str_eq(cs_request_table_cell(r, 0, 5, 4), "1/6");
    cr_assert_str_eq(cs_request_table_cell(r, 0, 99, 0), "");
    cr_assert_eq(cs_request_table_rows(r, 1), 0);
    cs_text want = {0};
    cr_assert_eq(cs_tablefmt(cs_request_table(r, 0), CS_FORMAT_CSV, &want), CS_OK);
    long n = cs_request_table_text(r, 0, "csv", NULL, 0);
    cr_assert_eq(n, (long)want.len);
    char *buf = malloc((size_t)n + 1);
    cr_assert_eq(cs_request_table_text(r, 0, "csv", buf, (size_t)n + 1), n);
    cr_assert_str_eq(buf, want.s);
    /* A short buffer holds what fits, terminated; the length is still n. */
    char small[8];
    cr_assert_eq(cs_request_table_text(r, 0, "csv", small, sizeof small), n);
    cr_assert_eq(strlen(small), sizeof small - 1);
    cr_assert_eq(strncmp(small, want.s, sizeof small - 1), 0);
    cr_assert_eq(cs_request_table_text(r, 0, "xml", buf, (size_t)n + 1), -1);
    cr_assert_eq(cs_request_table_text(r, 3, "csv", buf, (size_t)n + 1), -1);
    free(buf);
    free(want.s);
    cs_request_free(r);
}

Test(reqapi, an_options_key)
{
    cs_request *r = cs_request_new("run");
    cr_assert_str_eq(cs_request_key_of(r, "method"), "experiment.method");
    cr_assert_str_eq(cs_request_key_of(r, "--trials"), "experiment.trials");
    cr_assert_str_eq(cs_request_key_of(r, "max_trials"), "max_trials");
    cr_assert_null(cs_request_key_of(r, "distance")); /* a --set key, no option */
    cr_assert_null(cs_request_key_of(r, "o"));        /* the front end's own */
    cs_request_free(r);
}

Test(reqapi, a_set_flag_cancels)
{
    cs_request *r = cs_request_new("run");
    cr_assert_eq(cs_request_set(r, "input", "experiments/default.ini"), CS_OK);
    cr_assert_eq(cs_request_set(r, "experiment.method", "mc"), CS_OK);
    cr_assert_eq(cs_request_set(r, "experiment.trials", "1000000000"), CS_OK);
    int flag = 1;
    cs_request_cancel_on(r, &flag);
    cr_assert_eq(cs_request_run(r), CS_ESTOPPED);
    cs_request_free(r);
}

Test(reqapi, errors_and_version)
{
    cs_request *r = cs_request_new("dice");
    cr_assert_str_eq(cs_request_message(r), "");
    cr_assert_neq(cs_request_set(r, "trials", "0"), CS_OK);
    cr_assert(strstr(cs_request_message(r), "--trials"), "%s", cs_request_message(r));
    cr_assert_eq(cs_request_fault(r), 0);
    cs_request_free(r);
    cr_assert_eq(cs_request_api_version(),
                 CHARGESIM_API_VERSION_MAJOR * 1000 + CHARGESIM_API_VERSION_MINOR);
    cr_assert_str_eq(cs_request_library_version(), CS_VERSION);
}

/* A units request whose caller names no mapping folder (the command line
 * and the bindings always name one) says so, and names the key. */
Test(reqapi, units_without_a_mapping_folder)
{
    cs_request *r = cs_request_new("units");
    cr_assert_eq(cs_request_set(r, "source", "data/tow/Bretonnians.cat"), CS_OK);
    cr_assert_neq(cs_request_run(r), CS_OK);
    cr_assert(strstr(cs_request_message(r), "no mapping folder"), "%s", cs_request_message(r));
    cr_assert_str_eq(cs_request_fault_key(r), "mapping");
    cs_request_free(r);
}
