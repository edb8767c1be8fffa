/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A command line as shell text; see include/chargesim/cmdline.h. */
#include "chargesim/cmdline.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void cs_cmdline_word(char *buf, size_t cap, const char *a)
{
    size_t used = strlen(buf);
    bool plain = a[0] != '\0';
    for (const char *p = a; *p && plain; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,%+@-",
                       *p) != NULL;
    if (plain) {
        snprintf(buf + used, cap - used, "%s", a);
        return;
    }
    snprintf(buf + used, cap - used, "'");
    for (const char *p = a; *p; p++) {
        used = strlen(buf);
        snprintf(buf + used, cap - used, *p == '\'' ? "'\\''" : "%c", *p);
    }
    used = strlen(buf);
    snprintf(buf + used, cap - used, "'");
}

void cs_cmdline_join(char *buf, size_t cap, const char *cmd, int argc, char *const *argv)
{
    snprintf(buf, cap, "chargesim %s", cmd);
    for (int i = 0; i < argc; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, cap - used, " ");
        cs_cmdline_word(buf, cap, argv[i]);
    }
}
