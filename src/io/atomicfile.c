/* Temporary-then-rename output; see include/chargesim/atomicfile.h. */
#include "chargesim/atomicfile.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporary names alive now, for the signal handler: async-signal-safe
 * unlink() of fixed buffers, no allocation there. */
#define MAX_OPEN 16
static char live[MAX_OPEN][4096];
static volatile sig_atomic_t live_used[MAX_OPEN];

static void track(const char *tmp, bool on)
{
    for (int i = 0; i < MAX_OPEN; i++) {
        if (on && !live_used[i] && strlen(tmp) < sizeof live[i]) {
            strcpy(live[i], tmp);
            live_used[i] = 1;
            return;
        }
        if (!on && live_used[i] && strcmp(live[i], tmp) == 0) {
            live_used[i] = 0;
            return;
        }
    }
}

static void on_signal(int sig)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (live_used[i])
            unlink(live[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

void cs_outfile_install_signal_cleanup(void)
{
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
}

cs_status cs_outfile_open(cs_outfile *o, const char *path, cs_error *err)
{
    memset(o, 0, sizeof *o);
    if (!path || strcmp(path, "-") == 0) {
        o->f = stdout;
        return CS_OK;
    }
    /* A directory would only fail at the rename, after the whole run. */
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return cs_error_set(err, CS_EINPUT, "%s: cannot write: is a directory", path);
    size_t n = strlen(path);
    o->path = malloc(n + 1);
    o->tmp = malloc(n + 32);
    if (!o->path || !o->tmp) {
        cs_outfile_abort(o);
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    }
    memcpy(o->path, path, n + 1);
    snprintf(o->tmp, n + 32, "%s.tmp.%ld", path, (long)getpid());
    o->f = fopen(o->tmp, "w");
    if (!o->f) {
        int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        cs_outfile_abort(o);
        return cs_error_set(err, CS_EINPUT, "%s: cannot write: %s", path, strerror(e));
    }
    track(o->tmp, true);
    return CS_OK;
}

cs_status cs_outfile_commit(cs_outfile *o, cs_error *err)
{
    if (!o->path) {
        if (fflush(stdout) != 0)
            return cs_error_set(err, CS_ERUNTIME, "writing to standard output: %s",
                                strerror(errno));
        return CS_OK;
    }
    bool bad = ferror(o->f) != 0;
    if (fclose(o->f) != 0)
        bad = true;
    o->f = NULL;
    if (bad) {
        int e = errno;
        cs_outfile_abort(o);
        return cs_error_set(err, CS_ERUNTIME, "writing failed: %s", strerror(e));
    }
    if (rename(o->tmp, o->path) != 0) {
        int e = errno;
        char path[4096];
        snprintf(path, sizeof path, "%s", o->path);
        cs_outfile_abort(o);
        return cs_error_set(err, CS_ERUNTIME, "%s: cannot rename into place: %s", path,
                            strerror(e));
    }
    track(o->tmp, false);
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
    return CS_OK;
}

void cs_outfile_abort(cs_outfile *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    if (o->tmp) {
        unlink(o->tmp);
        track(o->tmp, false);
    }
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}
