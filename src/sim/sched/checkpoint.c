/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Checkpoints: the identity of a run, the file's bytes and their checks;
 * see include/chargesim/checkpoint.h. This file opens no file: the caller's
 * sink writes the bytes (the output module) and the caller reads them (the
 * input module); the state it keeps is the opaque checkpoint's own. */
#include "chargesim/checkpoint.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chargesim/estimator.h"
#include "chargesim/experiment.h"
#include "chargesim/grow.h"
#include "chargesim/sched.h"
#include "chargesim/sha256.h"
#include "chargesim/success.h"

#define RUN_TAG "RUNSTATE" /* the scheduler's section starts so */
#define DIGEST 32u

double cs_ckpt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One command's checkpointing (checkpoint.h): opaque outside this file. */
typedef struct cs_ckpt {
    double every;       /* seconds between checkpoints at most */
    cs_ckpt_sink sink;
    char *ident;        /* the identity lines (cs_ckpt_identify) */
    size_t ident_len;
    /* To resume (cs_ckpt_load): views into the caller's copy of the file,
     * which must outlive the run. The scheduler's state goes to the next
     * cs_sched_run, which clears it; the outer layer reads its own. */
    const unsigned char *outer_in, *sched_in;
    size_t outer_in_len, sched_in_len;
    bool resumed;
    /* The outer layer's state, written with each checkpoint (a map's
     * finished cells); none by default. */
    cs_ckpt_piece outer[2];
    int n_outer;
    /* Kept by the runs. */
    double last;        /* monotonic seconds of the last checkpoint (or the start) */
    uint64_t written;   /* checkpoints written */
    int stopped;        /* a run stopped at the sink's word, its checkpoint written:
                           the sink's code; 0 when none did */
    cs_status last_write; /* the last write's status (CS_OK before any) */
} cs_ckpt;

cs_ckpt *cs_ckpt_new(double every, const cs_ckpt_sink *sink)
{
    cs_ckpt *ck = calloc(1, sizeof *ck);
    if (!ck)
        return NULL;
    ck->every = every;
    ck->sink = *sink;
    ck->last = cs_ckpt_now();
    return ck;
}

void cs_ckpt_free(cs_ckpt *ck)
{
    if (!ck)
        return;
    free(ck->ident);
    free(ck);
}

bool cs_ckpt_due(const cs_ckpt *ck)
{
    return cs_ckpt_now() - ck->last >= ck->every;
}

double cs_ckpt_every(const cs_ckpt *ck)
{
    return ck->every;
}

int cs_ckpt_asked(const cs_ckpt *ck)
{
    return ck->sink.stop ? ck->sink.stop(ck->sink.user) : 0;
}

void cs_ckpt_stop(cs_ckpt *ck, int code)
{
    ck->stopped = code;
}

int cs_ckpt_stopped(const cs_ckpt *ck)
{
    return ck->stopped;
}

cs_status cs_ckpt_last_write(const cs_ckpt *ck)
{
    return ck->last_write;
}

const char *cs_ckpt_identity(const cs_ckpt *ck, size_t *len)
{
    *len = ck->ident_len;
    return ck->ident;
}

const unsigned char *cs_ckpt_take_outer(cs_ckpt *ck, size_t *len)
{
    const unsigned char *p = ck->outer_in;
    *len = ck->outer_in_len;
    ck->outer_in = NULL;
    ck->outer_in_len = 0;
    return p;
}

void cs_ckpt_set_outer(cs_ckpt *ck, const cs_ckpt_piece *pieces, int n)
{
    for (int i = 0; i < n && i < 2; i++)
        ck->outer[i] = pieces[i];
    ck->n_outer = n < 2 ? n : 2;
}

uint64_t cs_ckpt_u64_at(const void *p, uint64_t i)
{
    uint64_t v;
    memcpy(&v, (const unsigned char *)p + i * sizeof v, sizeof v);
    return v;
}

static void putf(cs_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(cs_text *t, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0)
        cs_text_put(t, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* A value on one line: backslash, newline and control characters escaped,
 * so the first empty line ends the identity. */
static void put_escaped(cs_text *t, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\\')
            cs_text_put(t, "\\\\", 2);
        else if (c < 0x20 || c == 0x7f)
            putf(t, "\\x%02x", c);
        else
            cs_text_put(t, s, 1);
    }
}

static void puts_(cs_text *t, const char *s)
{
    cs_text_put(t, s, strlen(s));
}

static void line(cs_text *t, const char *key, const char *value)
{
    cs_text_put(t, key, strlen(key));
    cs_text_put(t, " ", 1);
    put_escaped(t, value);
    cs_text_put(t, "\n", 1);
}

/* Value j of parameter i exactly: a number to 17 significant digits (it
 * reads back as the same double), a choice or a flag by name, a text as
 * written. */
static void value_of(cs_text *t, const cs_param_def *d, const cs_value_spec *v, int j)
{
    switch (d->type) {
    case CS_PARAM_BOOL:
        put_escaped(t, v->num[j] != 0.0 ? "true" : "false");
        break;
    case CS_PARAM_CHOICE:
        put_escaped(t, d->choices[(int)v->num[j]]);
        break;
    case CS_PARAM_DICE:
    case CS_PARAM_TEXT:
    case CS_PARAM_POLYGON:
        put_escaped(t, v->text && v->text[j] ? v->text[j] : "");
        break;
    case CS_PARAM_REAL:
    case CS_PARAM_INT:
        putf(t, "%.17g", v->num[j]);
        break;
    }
}

/* "params.KEY VALUES": every value the key takes, so two spellings of one
 * sweep (1..24 and 1..24:1) are one identity. */
static void param_line(cs_text *t, const char *prefix, const cs_experiment *e, int i)
{
    const cs_param_def *d = &e->rs->params[i];
    const cs_value_spec *v = &e->param[i];
    putf(t, "%sparams.%s ", prefix, d->key);
    if (v->kind == CS_VAL_UNIFORM || v->kind == CS_VAL_NORMAL)
        putf(t, "%s(%.17g,%.17g)", v->kind == CS_VAL_UNIFORM ? "uniform" : "normal", v->a, v->b);
    else
        for (int j = 0; j < v->n; j++) {
            if (j)
                cs_text_put(t, ",", 1);
            value_of(t, d, v, j);
        }
    cs_text_put(t, "\n", 1);
}

/* Whether B's parameter i takes other values than A's. */
static bool param_differs(const cs_experiment *a, const cs_experiment *b, int i)
{
    cs_text ta = {0}, tb = {0};
    param_line(&ta, "", a, i);
    param_line(&tb, "", b, i);
    bool differ = ta.oom || tb.oom || strcmp(ta.s, tb.s) != 0;
    free(ta.s);
    free(tb.s);
    return differ;
}

static const char *abi(void)
{
    const uint16_t one = 1;
    unsigned char low;
    memcpy(&low, &one, 1);
    return low ? (sizeof(void *) == 8 ? "little-endian 64-bit" : "little-endian 32-bit")
               : (sizeof(void *) == 8 ? "big-endian 64-bit" : "big-endian 32-bit");
}

static void experiment_lines(cs_text *t, const cs_experiment *e, const cs_run_opts *opts,
                             const cs_estimator *est)
{
    char buf[512];
    line(t, "ruleset", e->rs->name);
    for (int i = 0; i < e->rs->n_params; i++)
        param_line(t, "", e, i);
    putf(t, "experiment.trials %llu\n", (unsigned long long)e->trials);
    putf(t, "experiment.seed %llu\n", (unsigned long long)e->seed);
    putf(t, "experiment.method %s%s\n", cs_method_name(est->method), opts->pair ? " (paired)" : "");
    putf(t, "experiment.replicates %u\n", e->replicates);
    putf(t, "experiment.confidence %.17g\n", e->confidence);
    putf(t, "experiment.precision %.17g\n", e->precision);
    putf(t, "--max-trials %llu\n", (unsigned long long)(opts->max_trials ? opts->max_trials
                                                                     : CS_SCHED_DEFAULT_MAX_TRIALS));
    cs_success_names(e->rs, opts->success_mask ? opts->success_mask : e->rs->success_mask,
                         buf, sizeof buf);
    line(t, "--success", buf);
    line(t, "--dist", opts->want_dist ? "yes" : "no");
    for (int i = 0; opts->pair && i < e->rs->n_params; i++)
        if (param_differs(e, opts->pair, i))
            param_line(t, "b.", opts->pair, i);
}

cs_status cs_ckpt_identify(cs_ckpt *ck, const char *command, const cs_experiment *e,
                           const cs_run_opts *opts, const char *extra, const char *note,
                           cs_error *err)
{
    /* The method as the run resolved it (cs_sched_plan); a caller that has
     * not planned its run gets the registry's answer, the same one. */
    const cs_estimator *est = opts->est;
    cs_status st = est ? CS_OK : cs_estimator_of(e, opts->pair, &est, err);
    if (st != CS_OK)
        return st;
    cs_text t = {0};
    cs_text_put(&t, CS_CKPT_MAGIC, strlen(CS_CKPT_MAGIC));
    line(&t, "version", CS_VERSION);
    line(&t, "abi", abi());
    line(&t, "command", command);
    experiment_lines(&t, e, opts, est);
    if (extra)
        cs_text_put(&t, extra, strlen(extra));
    if (note) {
        cs_text_put(&t, "# ", 2);
        put_escaped(&t, note);
        cs_text_put(&t, "\n", 1);
    }
    cs_text_put(&t, "\n", 1);
    if (t.oom) {
        free(t.s);
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    }
    free(ck->ident);
    ck->ident = t.s;
    ck->ident_len = t.len;
    return CS_OK;
}

/* One "KEY VALUE" line of an identity; value_len 0 and value pointing at
 * the newline for a key without value. */
typedef struct entry {
    const char *key, *value;
    size_t key_len, value_len;
} entry;

/* The next line of the identity at *p (below end) into *en; false at the
 * empty line that ends it. Notes ("# ") are skipped. */
static bool next_entry(const char **p, const char *end, entry *en)
{
    for (;;) {
        const char *nl = memchr(*p, '\n', (size_t)(end - *p));
        if (!nl || nl == *p)
            return false;
        const char *s = *p;
        *p = nl + 1;
        if (s[0] == '#')
            continue;
        const char *sp = memchr(s, ' ', (size_t)(nl - s));
        en->key = s;
        en->key_len = sp ? (size_t)(sp - s) : (size_t)(nl - s);
        en->value = sp ? sp + 1 : nl;
        en->value_len = sp ? (size_t)(nl - sp - 1) : 0;
        return true;
    }
}

/* The entry KEY of the identity starting at p, or false. */
static bool find_entry(const char *p, const char *end, const char *key, size_t key_len,
                       entry *en)
{
    while (next_entry(&p, end, en))
        if (en->key_len == key_len && memcmp(en->key, key, key_len) == 0)
            return true;
    return false;
}

/* A value shown in a message: at most 60 characters. */
static void shown(cs_text *t, const entry *en, bool present)
{
    if (!present) {
        cs_text_put(t, "(none)", 6);
        return;
    }
    size_t n = en->value_len > 60 ? 57 : en->value_len;
    cs_text_put(t, en->value, n);
    if (n < en->value_len)
        cs_text_put(t, "...", 3);
}

static void difference(cs_text *t, int *n, const entry *key, const entry *saved, bool has_saved,
                       const entry *asked, bool has_asked)
{
    if (++*n > 4)
        return;
    putf(t, "%s%.*s is ", *n > 1 ? "; " : "", (int)key->key_len, key->key);
    shown(t, saved, has_saved);
    cs_text_put(t, " in it, ", 8);
    shown(t, asked, has_asked);
    cs_text_put(t, " here", 5);
}

/* Every value of the identities that differs, worded into t; the count. */
static int differences(const char *saved, const char *saved_end, const char *asked,
                       const char *asked_end, cs_text *t)
{
    int n = 0;
    entry a, s;
    for (const char *p = asked; next_entry(&p, asked_end, &a);) {
        bool has = find_entry(saved, saved_end, a.key, a.key_len, &s);
        if (!has || s.value_len != a.value_len || memcmp(s.value, a.value, a.value_len) != 0)
            difference(t, &n, &a, &s, has, &a, true);
    }
    for (const char *p = saved; next_entry(&p, saved_end, &s);)
        if (!find_entry(asked, asked_end, s.key, s.key_len, &a))
            difference(t, &n, &s, &s, true, &a, false);
    if (n > 4)
        putf(t, "; and %d more", n - 4);
    return n;
}

static cs_status refuse(cs_error *err, const char *name, const char *why)
{
    return cs_error_set(err, CS_EINPUT,
                        "--checkpoint %s: %s; it is left as it is and nothing was run", name, why);
}

/* The header (identity) at the start of the file: its end, past the empty
 * line, or NULL. */
static const unsigned char *header_end(const unsigned char *b, size_t len)
{
    for (size_t i = strlen(CS_CKPT_MAGIC); i + 1 < len; i++)
        if (b[i] == '\n' && b[i + 1] == '\n')
            return b + i + 2;
    return NULL;
}

/* The two sections after the header: each a u64 length and its bytes. */
static bool sections(cs_ckpt *ck, const unsigned char *p, const unsigned char *end)
{
    uint64_t n;
    const unsigned char **at[2] = {&ck->outer_in, &ck->sched_in};
    size_t *len[2] = {&ck->outer_in_len, &ck->sched_in_len};
    for (int k = 0; k < 2; k++) {
        if ((size_t)(end - p) < sizeof n)
            return false;
        memcpy(&n, p, sizeof n);
        p += sizeof n;
        if (n > (uint64_t)(end - p))
            return false;
        *at[k] = p;
        *len[k] = (size_t)n;
        p += n;
    }
    return p == end;
}

/* The version, then the build, then every other value: the first that
 * differs is what the message leads with. */
static cs_status check_identity(const cs_ckpt *ck, const char *name, const char *saved,
                                const char *saved_end, cs_error *err)
{
    const char *asked = ck->ident + strlen(CS_CKPT_MAGIC), *asked_end = ck->ident + ck->ident_len;
    static const char *const first[] = {"version", "abi"};
    static const char *const why[] = {
        "a checkpoint goes on only under the version that wrote it: finish the run with "
        "that version, or remove the file to start afresh",
        "a checkpoint goes on only on the kind of machine that wrote it"};
    for (int k = 0; k < 2; k++) {
        entry s, a;
        bool hs = find_entry(saved, saved_end, first[k], strlen(first[k]), &s);
        find_entry(asked, asked_end, first[k], strlen(first[k]), &a);
        if (!hs || s.value_len != a.value_len || memcmp(s.value, a.value, a.value_len) != 0) {
            cs_text t = {0};
            putf(&t, "it was written by chargesim %s ", k == 0 ? "version" : "on a");
            shown(&t, &s, hs);
            putf(&t, ", this is %s%.*s (%s)", k == 0 ? "version " : "", (int)a.value_len,
                 a.value, why[k]);
            cs_status st = refuse(err, name, t.oom ? "another version" : t.s);
            free(t.s);
            return st;
        }
    }
    cs_text t = {0};
    puts_(&t, "it was written by another command: ");
    int n = differences(saved, saved_end, asked, asked_end, &t);
    puts_(&t, ". Resume with the command that wrote it (its options are at the top of the file; "
              "the thread count may differ), or remove the file to start afresh");
    cs_status st = n == 0 ? CS_OK : refuse(err, name, t.oom ? "another command" : t.s);
    free(t.s);
    return st;
}

cs_status cs_ckpt_load(cs_ckpt *ck, const char *name, const unsigned char *bytes, size_t len,
                       cs_error *err)
{
    const size_t magic = strlen(CS_CKPT_MAGIC), stem = magic - 2; /* "chargesim checkpoint" */
    if (len == 0)
        return refuse(err, name, "the file is empty, not a checkpoint");
    if (memcmp(bytes, CS_CKPT_MAGIC, len < stem ? len : stem) != 0)
        return refuse(err, name,
                      "not a chargesim checkpoint (it does not start with 'chargesim "
                      "checkpoint'); name another file, or remove this one");
    if (len >= magic && memcmp(bytes, CS_CKPT_MAGIC, magic) != 0)
        return refuse(err, name, "a checkpoint in a format this version cannot read (format 1)");
    uint8_t digest[DIGEST];
    cs_sha256 h;
    if (len >= magic + DIGEST) {
        cs_sha256_init(&h);
        cs_sha256_update(&h, bytes, len - DIGEST);
        cs_sha256_final(&h, digest);
    }
    const unsigned char *body = header_end(bytes, len);
    if (len < magic + DIGEST || memcmp(digest, bytes + len - DIGEST, DIGEST) != 0 || !body ||
        body > bytes + len - DIGEST)
        return refuse(err, name,
                      "damaged or truncated (its SHA-256 does not match its contents); remove "
                      "it to start afresh");
    cs_status st = check_identity(ck, name, (const char *)bytes + magic, (const char *)body, err);
    if (st != CS_OK)
        return st;
    if (!sections(ck, body, bytes + len - DIGEST)) {
        ck->outer_in = ck->sched_in = NULL;
        ck->outer_in_len = ck->sched_in_len = 0;
        return refuse(err, name, "its sections do not add up to the file (not a checkpoint of "
                                 "this version)");
    }
    ck->resumed = true;
    return CS_OK;
}

/* The scheduler's section: this head, then per pass a pass_head, the
 * blocks done (u64 each), the active flags (a byte each) and the tallies,
 * then the histograms (u64 each). */
typedef struct run_head {
    char tag[8];
    uint32_t n_passes, unused;
    uint64_t done, hist_len;
} run_head;

typedef struct pass_head {
    uint64_t target, n_points, tally_size;
    char estimator[16];
} pass_head;

/* a * b, or false past size_t (a 32-bit build). */
static bool mul(uint64_t a, uint64_t b, size_t *out)
{
    if (b && a > (uint64_t)SIZE_MAX / b)
        return false;
    *out = (size_t)(a * b);
    return true;
}

/* Appends a piece; none of no bytes, so that a sink never gets one. */
static void add(cs_ckpt_piece *pc, int *n, const void *p, size_t len)
{
    if (len)
        pc[(*n)++] = (cs_ckpt_piece){p, len};
}

cs_status cs_ckpt_save_run(cs_ckpt *ck, const cs_ckpt_run *r, cs_error *err)
{
    cs_ckpt_piece pc[CS_CKPT_MAX_PIECES];
    int n = 0;
    uint64_t outer_len = 0, sched_len = sizeof(run_head);
    run_head rh;
    pass_head ph[2];
    memset(&rh, 0, sizeof rh);
    memcpy(rh.tag, RUN_TAG, sizeof rh.tag);
    rh.n_passes = (uint32_t)r->n_passes;
    rh.done = r->done;
    rh.hist_len = r->hist_len;
    add(pc, &n, ck->ident, ck->ident_len);
    add(pc, &n, &outer_len, sizeof outer_len);
    for (int i = 0; i < ck->n_outer; i++) {
        add(pc, &n, ck->outer[i].p, ck->outer[i].n);
        outer_len += ck->outer[i].n;
    }
    add(pc, &n, &sched_len, sizeof sched_len);
    add(pc, &n, &rh, sizeof rh);
    /* Every array r describes is in memory, so its size in bytes fits in a
     * size_t (no product here can pass SIZE_MAX, even in a 32-bit build). */
    for (int p = 0; p < r->n_passes; p++) {
        const cs_ckpt_pass *s = &r->pass[p];
        size_t nb = (size_t)s->n_points * 8, nt = (size_t)s->n_points * (size_t)s->tally_size;
        memset(&ph[p], 0, sizeof ph[p]);
        ph[p].target = s->target;
        ph[p].n_points = s->n_points;
        ph[p].tally_size = s->tally_size;
        snprintf(ph[p].estimator, sizeof ph[p].estimator, "%s", s->estimator);
        add(pc, &n, &ph[p], sizeof ph[p]);
        add(pc, &n, s->blocks_done, nb);
        add(pc, &n, s->active, (size_t)s->n_points);
        add(pc, &n, s->tallies, nt);
        sched_len += sizeof ph[p] + nb + (uint64_t)s->n_points + nt;
    }
    size_t nh = (size_t)r->hist_len * 8;
    add(pc, &n, r->hist, nh);
    sched_len += nh;
    uint8_t digest[DIGEST];
    cs_sha256 h;
    cs_sha256_init(&h);
    for (int i = 0; i < n; i++)
        cs_sha256_update(&h, pc[i].p, pc[i].n);
    cs_sha256_final(&h, digest);
    add(pc, &n, digest, sizeof digest);
    cs_error werr;
    ck->last_write = ck->sink.write(ck->sink.user, pc, n, &werr);
    ck->last = cs_ckpt_now();
    if (ck->last_write == CS_OK)
        ck->written++;
    return ck->last_write == CS_ENOMEM ? cs_error_set(err, CS_ENOMEM, "%s", werr.msg) : CS_OK;
}

/* Takes n bytes at *p (below end) as a view; false past the end. */
static bool take(const unsigned char **p, const unsigned char *end, size_t n,
                 const unsigned char **view)
{
    if (n > (size_t)(end - *p))
        return false;
    *view = *p;
    *p += n;
    return true;
}

static bool take_pass(const unsigned char **p, const unsigned char *end, cs_ckpt_pass *s)
{
    const unsigned char *v;
    pass_head ph;
    size_t nb, nt;
    if (!take(p, end, sizeof ph, &v))
        return false;
    memcpy(&ph, v, sizeof ph);
    if (!mul(ph.n_points, 8, &nb) || !mul(ph.n_points, ph.tally_size, &nt) ||
        ph.n_points > (uint64_t)SIZE_MAX)
        return false;
    s->target = ph.target;
    s->n_points = ph.n_points;
    s->tally_size = ph.tally_size;
    memcpy(s->estimator, ph.estimator, sizeof s->estimator);
    s->estimator[sizeof s->estimator - 1] = '\0';
    if (!take(p, end, nb, &v))
        return false;
    s->blocks_done = v;
    return take(p, end, (size_t)ph.n_points, &s->active) && take(p, end, nt, &s->tallies);
}

cs_status cs_ckpt_take_run(cs_ckpt *ck, cs_ckpt_run *r, bool *have, cs_error *err)
{
    const unsigned char *p = ck->sched_in, *end = p + ck->sched_in_len, *v;
    *have = p != NULL;
    ck->sched_in = NULL;
    ck->sched_in_len = 0;
    memset(r, 0, sizeof *r);
    if (!*have)
        return CS_OK;
    run_head rh;
    size_t nh;
    bool ok = take(&p, end, sizeof rh, &v);
    if (ok)
        memcpy(&rh, v, sizeof rh);
    ok = ok && memcmp(rh.tag, RUN_TAG, sizeof rh.tag) == 0 && rh.n_passes >= 1 &&
         rh.n_passes <= 2;
    for (uint32_t i = 0; ok && i < rh.n_passes; i++)
        ok = take_pass(&p, end, &r->pass[i]);
    ok = ok && mul(rh.hist_len, 8, &nh) && take(&p, end, nh, &v) && p == end;
    if (!ok)
        return cs_error_set(err, CS_EINPUT,
                            "--checkpoint: the run's state in it is not one this version "
                            "writes; remove the file to start afresh");
    r->n_passes = (int)rh.n_passes;
    r->hist = v;
    r->done = rh.done;
    r->hist_len = rh.hist_len;
    return CS_OK;
}
