/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `make testmap` (scripts/testmap.sh, issue 51) on a scratch copy of src/,
 * tests/ and the script: it passes on the tree as it is, and fails, naming
 * each fault, when a module has no row, a row names a module or a test file
 * that does not exist or a suite its file does not have, or a test file is
 * in no row. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "support/helpers.h"

/* The copy, in a fresh directory of its own. */
static const char *scratch(void)
{
    const char *d = th_tmpdir();
    cr_assert(d);
    cr_assert_eq(th_sh(d,
                       "mkdir scripts && cp -R \"$R/src\" \"$R/tests\" . && "
                       "cp \"$R/scripts/testmap.sh\" scripts/",
                       NULL, NULL),
                 0);
    return d;
}

Test(testmap, passes_on_the_tree_as_it_is)
{
    const char *d = scratch();
    char *out = NULL;
    cr_expect_eq(th_sh(d, "sh scripts/testmap.sh . 2>&1", &out, NULL), 0, "%s", out);
    cr_expect(strstr(out, "maps every module under src/"), "%s", out);
    free(out);
}

Test(testmap, names_each_fault)
{
    const char *d = scratch();
    char *out = NULL, *err = NULL;
    cr_assert_eq(th_sh(d,
                       "touch src/sim/newmod.c && "
                       "sed -i -e '/`src\\/core\\/stats.c`/d' "
                       "-e 's/test_rng.c (rng)/test_rng.c (nosuchsuite)/' "
                       "-e 's/test_sha256.c (sha256)/test_sha999.c (sha256)/' tests/README.md && "
                       "echo '| `src/core/gone.c` | tests/nope.sh |' >>tests/README.md",
                       &out, &err),
                 0, "%s", err);
    cr_expect_eq(th_sh(d, "sh scripts/testmap.sh .", &out, &err), 1, "%s", out);
    static const char *const faults[] = {
        "has no row for src/core/stats.c",
        "has no row for src/sim/newmod.c",
        "has a row for src/core/gone.c, which does not exist",
        "names test_sha999.c, which is not in tests/",
        "names tests/nope.sh, which does not exist",
        "names suite nosuchsuite in test_rng.c, which has no such suite",
        "names test_sha256.c in no row",
        "names test_stats.c in no row",
    };
    for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
        cr_expect(strstr(out, faults[i]), "%s not in:\n%s", faults[i], out);
    free(out);
    free(err);
}
