/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Corpus replay: runs a harness over every file named on the command line
 * (directories are walked one level), through the normal build, so every
 * input that once failed stays fixed (`make test` runs it). Exit 0 when all
 * inputs ran; a defect aborts, as under libFuzzer. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return 1;
            }
            buf = nb;
        }
        size_t r = fread(buf + len, 1, cap - len, f);
        if (r == 0)
            break;
        len += r;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

static int run_dir(const char *dir, int *count)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    if (n < 0) {
        perror(dir);
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.') {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
            bad |= run_file(path);
            ++*count;
        }
        free(names[i]);
    }
    free(names);
    return bad;
}

int main(int argc, char **argv)
{
    int bad = 0, count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            bad |= run_dir(argv[i], &count);
        } else {
            bad |= run_file(argv[i]);
            count++;
        }
    }
    fprintf(stderr, "%s: %d inputs replayed%s\n", argv[0], count, bad ? ", some unreadable" : "");
    return bad;
}
