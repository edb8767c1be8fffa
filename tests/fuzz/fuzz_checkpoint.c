/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: a checkpoint's state, resumed (issue 34). The first
 * byte picks one of three runs (mc with --dist; rqmc with --precision and
 * a trial cap; asoiaf exact, whose metrics are resampled, with --dist);
 * the rest is the file's body (its two sections), to which the harness
 * puts the run's own identity in front and a right SHA-256 behind, so the
 * fuzzer reaches the parsers behind the digest (anyone can write a file
 * with a right digest). A body that loads is resumed on one thread: any
 * status is fine, a crash, a sanitizer report or unbounded work is not. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chargesim/checkpoint.h"
#include "chargesim/expfile.h"
#include "chargesim/sha256.h"
#include "chargesim/sched.h"
#include "fuzz.h"

static const char *const runs[3] = {
    "[experiment]\nruleset = generic\ntrials = 8192\nseed = 3\nmethod = mc\n"
    "[params]\ndistance = 6,8\n",
    "[experiment]\nruleset = generic\ntrials = 64\nseed = 3\nmethod = rqmc\nreplicates = 4\n"
    "precision = 0.01\n[params]\ndistance = uniform(4,10)\nmove = 3,5\n",
    "[experiment]\nruleset = asoiaf\ntrials = 4096\nseed = 5\n[params]\nspeed = 5\n"
    "distance = 6,8\n",
};

static cs_status no_write(void *user, const cs_ckpt_piece *pc, int n, cs_error *err)
{
    (void)user, (void)pc, (void)n, (void)err;
    return CS_OK;
}

static int never(void *user)
{
    (void)user;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1u << 20))
        return 0;
    int which = data[0] % 3;
    char path[64];
    int fd;
    if (!fuzz_file((const uint8_t *)runs[which], strlen(runs[which]), "run.ini", path,
                   sizeof path, &fd))
        return 0;
    cs_experiment e;
    cs_error err;
    cs_status st = cs_expfile_load(path, NULL, 0, &e, &err);
    fuzz_file_close(fd);
    if (st != CS_OK)
        abort(); /* the harness's own experiments load */
    /* Bounded work: a --precision round past 64 blocks is refused. */
    cs_run_opts o = {.threads = 1, .want_dist = which != 1, .max_trials = which == 1 ? 4096 : 0};
    cs_ckpt *ck;
    cs_ckpt_sink sink = {no_write, never, NULL};
    ck = cs_ckpt_new(1e9, &sink);
    if (cs_ckpt_identify(ck, "run", &e, &o, NULL, NULL, &err) != CS_OK)
        abort();
    size_t ident_len;
    const char *ident = cs_ckpt_identity(ck, &ident_len);
    size_t len = ident_len + size - 1 + 32;
    unsigned char *file = malloc(len);
    if (file) {
        memcpy(file, ident, ident_len);
        memcpy(file + ident_len, data + 1, size - 1);
        cs_sha256 h;
        cs_sha256_init(&h);
        cs_sha256_update(&h, file, len - 32);
        cs_sha256_final(&h, file + len - 32);
        if (cs_ckpt_load(ck, "fuzz", file, len, &err) == CS_OK) {
            cs_run_result r;
            o.checkpoint = ck;
            if (cs_sched_run(&e, &o, &r, &err) == CS_OK)
                cs_sched_result_free(&r);
        }
        free(file);
    }
    cs_ckpt_free(ck);
    cs_experiment_free(&e);
    return 0;
}
