/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --checkpoint for run, map and compare (issue 34), around their request
 * (request.h): the file checked, read to resume, written while the run
 * goes on and removed when its outputs are written; SIGINT and SIGTERM
 * answered with a last checkpoint; and the one sequence around the request
 * the three commands share (cs_cli_request_run: progress, checkpoint, run,
 * stop, failure). See include/chargesim/cli.h and
 * include/chargesim/checkpoint.h (the format). */
#define _DEFAULT_SOURCE
#include "chargesim/cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chargesim/infile.h"
#include "chargesim/options.h"
#include "chargesim/output.h"
#include "chargesim/request.h"
#include "chargesim/sched.h"

/* Longest interval accepted: a week. */
#define MAX_EVERY (7.0 * 24 * 3600)

int cs_cli_ckpt_option(cs_cli_ckpt *c, const cs_opt *o, const char *v, bool *matched)
{
    if (strcmp(o->name, "--checkpoint-every") == 0) {
        *matched = true;
        char *end;
        double s = strtod(v, &end);
        if (end == v || *end != '\0' || !(s > 0.0) || !(s <= MAX_EVERY))
            return cs_cli_fail(c->cmd, CS_EINPUT,
                               "--checkpoint-every '%s': expected seconds above 0, at most %.0f "
                               "(a week), e.g. 60 or 0.5",
                               v, MAX_EVERY);
        c->every_text = v;
    } else if (strcmp(o->name, "--checkpoint") == 0) {
        *matched = true;
        c->path = v;
    }
    return 0;
}

/* The sink's write: the pieces into FILE through the output module (a
 * temporary beside it, fsync, rename), so a kill at any moment leaves the
 * last checkpoint or this one. A failure is said here; the run goes on. */
static cs_status sink_write(void *user, const cs_ckpt_piece *pc, int n, cs_error *err)
{
    const cs_cli_ckpt *c = user;
    cs_outfile o;
    cs_status st = cs_outfile_open(&o, c->path, err);
    for (int i = 0; st == CS_OK && i < n; i++)
        if (pc[i].n && fwrite(pc[i].p, 1, pc[i].n, o.f) != pc[i].n)
            st = cs_outfile_write_error(&o, err);
    if (st == CS_OK)
        st = cs_outfile_commit(&o, err);
    else
        cs_outfile_abort(&o);
    if (st != CS_OK)
        fprintf(stderr,
                "chargesim %s: warning: the checkpoint was not written: %s; the run goes on "
                "(%s holds the last one written, if any)\n",
                c->cmd, err->msg, c->path);
    return st;
}

static int sink_stop(void *user)
{
    (void)user;
    return cs_outfile_deferred_signal();
}

/* What FILE must not be: empty, standard output, a directory or device
 * (it is replaced by rename), an input or an output of the run (or an
 * output's metadata beside it). 0, or the exit status after the message. */
static int check_path(const cs_cli_ckpt *c, const char *const *inputs, int n_inputs,
                      const char *const *outputs, int n_outputs)
{
    cs_error err;
    struct stat sb;
    if (!c->path[0] || strcmp(c->path, "-") == 0)
        return cs_cli_fail(c->cmd, CS_EINPUT,
                           "--checkpoint '%s': expected a file name (a checkpoint is a file)",
                           c->path);
    if (!cs_infile_reader()) /* under MPI rank 0 alone looks at the disk */
        return 0;
    if (stat(c->path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return cs_cli_fail(c->cmd, CS_EINPUT,
                           "--checkpoint %s: not a regular file (a checkpoint is rewritten by "
                           "renaming a new file over it)",
                           c->path);
    if (cs_output_check_inputs(c->path, "--checkpoint", inputs, n_inputs, &err) != CS_OK)
        return cs_cli_fail_err(c->cmd, &err);
    for (int i = 0; i < n_outputs; i++) {
        if (!outputs[i] || strcmp(outputs[i], "-") == 0)
            continue;
        char *meta = cs_csvw_path(outputs[i]);
        bool same = cs_cli_same_file(c->path, outputs[i]) || (meta && cs_cli_same_file(c->path, meta));
        free(meta);
        if (same)
            return cs_cli_fail(c->cmd, CS_EINPUT,
                               "--checkpoint %s: that is an output of this run (%s or its "
                               "metadata); name another file",
                               c->path, outputs[i]);
    }
    /* A file that cannot be written fails now, not after the first interval. */
    cs_outfile o;
    if (cs_outfile_open(&o, c->path, &err) != CS_OK)
        return cs_cli_fail_err(c->cmd, &err);
    cs_outfile_abort(&o);
    return 0;
}

/* The command line as typed, for the note in the file and the word on how
 * to resume: words with a character the shell reads quoted. */
static void command_line(const cs_cli_ckpt *c, char *buf, size_t cap)
{
    size_t u = (size_t)snprintf(buf, cap, "chargesim %s", c->cmd);
    for (int i = 0; i < c->argc && u < cap; i++) {
        const char *w = c->argv[i];
        bool plain = w[0] && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789-_./=:,+%@") == strlen(w);
        if (plain) {
            u += (size_t)snprintf(buf + u, cap - u, " %s", w);
            continue;
        }
        u += (size_t)snprintf(buf + u, cap - u, " '");
        for (; *w && u < cap; w++)
            u += (size_t)snprintf(buf + u, cap - u, *w == '\'' ? "'\\''" : "%c", *w);
        if (u < cap)
            u += (size_t)snprintf(buf + u, cap - u, "'");
    }
}

/* The file's bytes into c->bytes (*len), through the input module (under
 * MPI rank 0's, for every rank); false when it does not exist. 0, or the
 * exit status after the message. */
static int read_file(cs_cli_ckpt *c, size_t *len, bool *exists)
{
    FILE *f = cs_infile_open(c->path);
    *exists = f != NULL;
    *len = 0;
    if (!f)
        return errno == ENOENT ? 0
                               : cs_cli_fail(c->cmd, CS_EINPUT, "--checkpoint %s: cannot read it: %s",
                                             c->path, strerror(errno));
    size_t cap = 0;
    int e = 0;
    for (;;) {
        if (*len == cap) {
            unsigned char *more = cap < CS_INFILE_MAX ? realloc(c->bytes, cap ? 2 * cap : 65536)
                                                      : NULL;
            if (!more) {
                e = cap < CS_INFILE_MAX ? ENOMEM : EFBIG;
                break;
            }
            c->bytes = more;
            cap = cap ? 2 * cap : 65536;
        }
        size_t got = fread(c->bytes + *len, 1, cap - *len, f);
        *len += got;
        if (got == 0) {
            e = ferror(f) ? (errno ? errno : EIO) : 0;
            break;
        }
    }
    fclose(f);
    if (e)
        return cs_cli_fail(c->cmd, e == ENOMEM ? CS_ENOMEM : CS_EINPUT,
                           "--checkpoint %s: cannot read it: %s", c->path, strerror(e));
    return 0;
}

int cs_cli_ckpt_start(cs_cli_ckpt *c, cs_request *r, const char *const *inputs, int n_inputs,
                      const char *const *outputs, int n_outputs)
{
    cs_error err;
    if (!c->path)
        return c->every_text ? cs_cli_fail(c->cmd, CS_EINPUT,
                                           "--checkpoint-every applies only with --checkpoint")
                             : 0;
    int rc = check_path(c, inputs, n_inputs, outputs, n_outputs);
    if (rc)
        return rc;
    cs_ckpt_sink sink = {sink_write, sink_stop, c};
    c->ck = cs_ckpt_new(c->every_text ? strtod(c->every_text, NULL) : CS_CKPT_DEFAULT_EVERY,
                        &sink);
    if (!c->ck)
        return cs_cli_fail(c->cmd, CS_ENOMEM, "out of memory");
    char note[4096];
    command_line(c, note, sizeof note);
    cs_run_opts *opts = cs_request_run_opts(r);
    if (cs_ckpt_identify(c->ck, c->cmd, cs_request_experiment(r), opts,
                         cs_request_identity_extra(r), note, &err) != CS_OK)
        return cs_cli_fail_err(c->cmd, &err);
    size_t len;
    bool exists;
    if ((rc = read_file(c, &len, &exists)) != 0)
        return rc;
    if (exists && cs_ckpt_load(c->ck, c->path, c->bytes, len, &err) != CS_OK)
        return cs_cli_fail_err(c->cmd, &err);
    if (exists)
        fprintf(stderr, "chargesim %s: note: going on from the checkpoint %s\n", c->cmd, c->path);
    opts->checkpoint = c->ck;
    return 0;
}

/* Around the run: SIGINT and SIGTERM deferred to its safe points. */
static void ckpt_arm(cs_cli_ckpt *c)
{
    if (c->path)
        cs_outfile_defer_signals(true);
}

static const char *signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

/* After the run: 0 to go on, or, when a signal stopped it (its checkpoint
 * written), the exit status 128 + the signal after the word on how to
 * resume. */
static int ckpt_stopped(cs_cli_ckpt *c)
{
    if (!c->path)
        return 0;
    if (!c->ck || !cs_ckpt_stopped(c->ck)) {
        cs_outfile_defer_signals(false); /* a signal after the last safe point: as ever */
        return 0;
    }
    /* Under MPI the signal may have reached another rank only. */
    int sig = cs_ckpt_stopped(c->ck);
    char line[4096];
    command_line(c, line, sizeof line);
    if (cs_ckpt_last_write(c->ck) == CS_OK)
        fprintf(stderr,
                "chargesim %s: stopped by %s: the checkpoint %s is written; run the same "
                "command to go on from it:\n  %s\n",
                c->cmd, signal_name(sig), c->path, line);
    else
        fprintf(stderr,
                "chargesim %s: stopped by %s; the checkpoint could not be written (above): %s "
                "holds the last one written, if any; the same command goes on from it:\n  %s\n",
                c->cmd, signal_name(sig), c->path, line);
    return 128 + sig;
}

int cs_cli_ckpt_finish(cs_cli_ckpt *c, int rc)
{
    cs_error err;
    if (!c->path || rc != 0 || !cs_infile_reader())
        return rc;
    if (cs_outfile_remove(c->path, &err) != CS_OK)
        fprintf(stderr, "chargesim %s: warning: the run is done but its checkpoint stays: %s\n",
                c->cmd, err.msg);
    return rc;
}

void cs_cli_ckpt_free(cs_cli_ckpt *c)
{
    cs_ckpt_free(c->ck);
    c->ck = NULL;
    free(c->bytes);
    c->bytes = NULL;
}

int cs_cli_request_run(const char *cmd, cs_request *r, bool quiet, cs_cli_ckpt *c)
{
    cs_progress prog;
    cs_cli_progress_init(&prog, quiet);
    cs_request_on_progress(r, cs_cli_progress_update, &prog);
    ckpt_arm(c);
    cs_status st = cs_request_run(r);
    cs_cli_progress_finish(&prog);
    int stopped = ckpt_stopped(c);
    if (st != CS_OK)
        return stopped ? stopped : cs_cli_fail_err(cmd, cs_request_error(r));
    return 0;
}
