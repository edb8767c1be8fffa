/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Line-numbered INI parsing; see include/chargesim/inifile.h. */
#include "chargesim/inifile.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "chargesim/infile.h"
#include "chargesim/sha256.h"

typedef struct reader {
    FILE *f;
    cs_ini_source *src;
    cs_sha256 sha; /* of every byte read so far */
    int too_long; /* the first line longer than inih's buffer, 0 if none */
    int max_len;  /* the longest line inih takes, in characters */
    int nul;      /* the first line holding a NUL byte, 0 if none */
    int long_section; /* the first [section] name inih would cut short, 0 if none */
} reader;

/* The next byte, counted into the digest. */
static int next(reader *r)
{
    int c = getc(r->f);
    if (c != EOF) {
        unsigned char b = (unsigned char)c;
        cs_sha256_update(&r->sha, &b, 1);
    }
    return c;
}

/* inih reads line by line through this, so handlers know the line they are
 * called for (Debian's libinih is built without INI_HANDLER_LINENO). */
static char *read_line(char *buf, int size, void *stream)
{
    reader *r = stream;
    if (r->too_long || r->nul || r->long_section)
        return NULL;
    /* getc rather than fgets: a NUL byte would end an fgets line silently,
     * and the rest of the line would be read as if it were not there. */
    int n = 0, c = EOF;
    bool nul = false;
    while (n < size - 1 && (c = next(r)) != EOF) {
        nul |= c == '\0';
        buf[n++] = (char)c;
        if (c == '\n')
            break;
    }
    if (n == 0)
        return NULL;
    buf[n] = '\0';
    r->src->line++;
    if (nul) {
        r->nul = r->src->line;
        return NULL;
    }
    /* inih's buffer is fixed (INI_MAX_LINE): the rest of a longer line would
     * come back as a line of its own, wrongly numbered and usually "malformed".
     * A line that fills the buffer exactly is still whole if its end of line
     * comes next (consumed here so the numbering stays right); anything else
     * stops the parse with the line named. */
    if (size > 1 && n == size - 1 && buf[n - 1] != '\n') {
        c = next(r);
        if (c == '\r')
            c = next(r);
        if (c != '\n' && c != EOF) {
            r->too_long = r->src->line;
            r->max_len = size - 1;
            return NULL;
        }
    }
    /* inih copies a section name into a buffer of its own (MAX_SECTION in
     * its ini.c) and cuts a longer one short without a word: two long
     * [characteristic ...] names alike at the start would become one. */
    const char *lb = buf + strspn(buf, " \t");
    const char *rb = *lb == '[' ? strchr(lb, ']') : NULL;
    if (rb && rb - lb - 1 > CS_INI_MAX_SECTION) {
        r->long_section = r->src->line;
        return NULL;
    }
    return buf;
}

int cs_inifile_parse(const char *path, ini_handler handler, void *user, cs_ini_source *src,
                     cs_error *err)
{
    reader r = {.f = cs_infile_open(path), .src = src};
    src->line = 0;
    src->sha256[0] = '\0';
    cs_sha256_init(&r.sha);
    if (!r.f) {
        cs_error_set(err, CS_EINPUT, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int bad = ini_parse_stream(read_line, &r, handler, user);
    int unreadable = ferror(r.f), read_errno = errno;
    fclose(r.f);
    if (unreadable) {
        cs_error_set(err, CS_EINPUT, "%s: cannot read: %s", path, strerror(read_errno));
        return -1;
    }
    if (r.nul) {
        cs_error_set(err, CS_EINPUT,
                     "%s:%d: a NUL byte in the line; an experiment or mapping file is text", path,
                     r.nul);
        return -1;
    }
    if (bad != 0)
        return bad;
    if (r.too_long) {
        cs_error_set(err, CS_EINPUT,
                     "%s:%d: line longer than %d characters; shorten it (a comment can go on a "
                     "line of its own, a long list may be a sweep a..b:step)",
                     path, r.too_long, r.max_len);
        return -1;
    }
    if (r.long_section) {
        cs_error_set(err, CS_EINPUT, "%s:%d: section name longer than %d characters", path,
                     r.long_section, CS_INI_MAX_SECTION);
        return -1;
    }
    uint8_t d[32];
    cs_sha256_final(&r.sha, d);
    cs_sha256_to_hex(d, src->sha256);
    return 0;
}
