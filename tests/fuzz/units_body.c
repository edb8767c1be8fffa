/* SPDX-License-Identifier: GPL-3.0-or-later */
/* See units_body.h. */
#include "units_body.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chargesim/cli.h"

static char dir[64];

static void remove_dir(void)
{
    static const char *const names[] = {"old.gst", "new.gst", "u.csv", "u.cat", "u.rosz"};
    char path[128];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

static void copy(const char *from, const char *name)
{
    char path[128], buf[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *in = fopen(from, "rb"), *out = fopen(path, "wb");
    size_t n;
    while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    if (in)
        fclose(in);
    if (out)
        fclose(out);
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/chargesim-fuzz-XXXXXX");
    if (!mkdtemp(dir))
        abort();
    atexit(remove_dir);
    copy("tests/data/units/old.gst", "old.gst");
    copy("tests/data/units/new.gst", "new.gst");
    /* The command's tables are not what is tested (its one-line counts on
     * stderr stay: stderr carries the sanitizers' reports). */
    if (!freopen("/dev/null", "w", stdout))
        abort();
}

void fuzz_units(const uint8_t *data, size_t size, const char *suffix, const char *mapping)
{
    if (!dir[0])
        setup();
    if (size > 65536)
        return;
    char path[128];
    snprintf(path, sizeof path, "%s/u%s", dir, suffix);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
    char *argv[] = {path, "--mapping", (char *)mapping, "--distance", "4..8", "--quiet", NULL};
    cs_cli_units(6, argv);
    unlink(path);
}
