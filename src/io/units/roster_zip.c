/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rosters, the container (roster.h: cs_roster_unpack): a `.rosz` is a zip
 * holding one `.ros`, inflated in memory by zlib.
 *
 * The central directory is the zip's table of contents and the only place
 * whose sizes hold for every writer: BattleScribe writes its entry with a
 * data descriptor (general-purpose flag bit 3), so the local header gives
 * sizes of 0 and the real ones follow the data. So the end-of-central-
 * directory record is found first, the one entry's sizes, method and flags
 * read there, and the local header only skipped. The bound is checked
 * against the size the entry claims before anything is inflated, and the
 * inflater is never given room past that claim: a stream that would grow
 * beyond it is refused, whatever it claimed. Zip64 and multi-disk archives
 * are refused (no roster comes near 4 GiB). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "chargesim/roster.h"

#define EOCD_SIZE 22u   /* end of central directory, without its comment */
#define CDH_SIZE 46u    /* central directory header, without name/extra/comment */
#define LFH_SIZE 30u    /* local file header, without name/extra */
#define MAX_COMMENT 0xffffu

static uint32_t le16(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
    return le16(p) | le16(p + 2) << 16;
}

static bool is_sig(const unsigned char *p, unsigned char a, unsigned char b)
{
    return p[0] == 'P' && p[1] == 'K' && p[2] == a && p[3] == b;
}

/* The offset of the end-of-central-directory record: the last signature
 * whose comment length reaches the file's end exactly. */
static bool find_eocd(const unsigned char *d, size_t n, size_t *at)
{
    if (n < EOCD_SIZE)
        return false;
    size_t lo = n - EOCD_SIZE > MAX_COMMENT ? n - EOCD_SIZE - MAX_COMMENT : 0;
    for (size_t i = n - EOCD_SIZE + 1; i-- > lo;)
        if (is_sig(d + i, 5, 6) && i + EOCD_SIZE + le16(d + i + 20) == n) {
            *at = i;
            return true;
        }
    return false;
}

/* The one entry, as the central directory gives it. */
typedef struct entry {
    uint32_t flags, method, crc, csize, usize, local;
} entry;

static cs_status bad(cs_error *err, const char *path, const char *what)
{
    return cs_error_set(err, CS_EINPUT, "%s: %s", path, what);
}

/* Reads the central directory: exactly one file entry (folders, names
 * ending in '/', aside). */
static cs_status one_entry(const unsigned char *d, size_t n, size_t eocd, const char *path,
                           entry *e, cs_error *err)
{
    const unsigned char *r = d + eocd;
    uint32_t count = le16(r + 10), size = le32(r + 12), off = le32(r + 16);
    if (le16(r + 4) != 0 || le16(r + 6) != 0 || le16(r + 8) != count)
        return bad(err, path, "a zip spanning several disks: not a roster archive");
    if (count == 0xffff || size == 0xffffffffu || off == 0xffffffffu)
        return bad(err, path, "a zip64 archive: not supported (a roster is far below 4 GiB)");
    if ((size_t)off > eocd || (size_t)size > eocd - off)
        return bad(err, path, "a zip whose central directory lies outside the file");
    int files = 0;
    size_t p = off, end = (size_t)off + size;
    for (uint32_t i = 0; i < count; i++) {
        if (end - p < CDH_SIZE || !is_sig(d + p, 1, 2))
            return bad(err, path, "a zip whose central directory is damaged");
        const unsigned char *h = d + p;
        size_t name = le16(h + 28), extra = le16(h + 30), comment = le16(h + 32);
        if (end - p - CDH_SIZE < name + extra + comment)
            return bad(err, path, "a zip whose central directory is damaged");
        bool folder = name > 0 && h[CDH_SIZE + name - 1] == '/';
        if (!folder && files++ == 0)
            *e = (entry){le16(h + 8), le16(h + 10), le32(h + 16), le32(h + 20), le32(h + 24),
                         le32(h + 42)};
        p += CDH_SIZE + name + extra + comment;
    }
    if (files == 0)
        return bad(err, path, "a zip with no entry (a .rosz holds one .ros)");
    if (files > 1)
        return cs_error_set(err, CS_EINPUT, "%s: a zip with %d entries (a .rosz holds one .ros)",
                            path, files);
    (void)n;
    return CS_OK;
}

/* Inflates the entry's raw deflate stream into exactly e->usize bytes. */
static cs_status inflate_entry(const unsigned char *src, const entry *e, unsigned char *dst,
                               const char *path, cs_error *err)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK)
        return cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
    z.next_in = (Bytef *)(uintptr_t)src;
    z.avail_in = e->csize;
    z.next_out = dst;
    z.avail_out = e->usize;
    int rc = inflate(&z, Z_FINISH);
    /* Room for one byte more would only tell that the stream goes on: it
     * ended, or it did not (Z_BUF_ERROR, Z_OK with the output full). */
    unsigned long out = z.total_out;
    inflateEnd(&z);
    if (rc == Z_MEM_ERROR)
        return cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
    if (rc != Z_STREAM_END && z.avail_out == 0 && z.avail_in > 0)
        return cs_error_set(err, CS_EINPUT, "%s: the zip entry inflates past the %lu bytes it "
                            "claims", path, (unsigned long)e->usize);
    if (rc != Z_STREAM_END || out != e->usize)
        return cs_error_set(err, CS_EINPUT, "%s: the zip entry is damaged (deflate stream %s)",
                            path, rc == Z_DATA_ERROR ? "corrupt" : "cut short");
    return CS_OK;
}

static cs_status unzip(const unsigned char *d, size_t n, size_t eocd, const char *path,
                       unsigned char **out, size_t *out_n, cs_error *err)
{
    entry e = {0};
    cs_status st = one_entry(d, n, eocd, path, &e, err);
    if (st != CS_OK)
        return st;
    if (e.flags & 1u)
        return bad(err, path, "the zip entry is encrypted");
    if (e.method != 0 && e.method != 8)
        return cs_error_set(err, CS_EINPUT, "%s: the zip entry uses compression method %u "
                            "(stored and deflated are read)", path, (unsigned)e.method);
    if ((size_t)e.usize > CS_ROSTER_MAX_BYTES)
        return cs_error_set(err, CS_ELIMIT, "%s: the zip entry claims %lu bytes, more than "
                            "the %zu a roster may have", path, (unsigned long)e.usize,
                            CS_ROSTER_MAX_BYTES);
    if ((size_t)e.local > n || n - e.local < LFH_SIZE || !is_sig(d + e.local, 3, 4))
        return bad(err, path, "a zip whose entry's local header is missing");
    size_t data = (size_t)e.local + LFH_SIZE + le16(d + e.local + 26) + le16(d + e.local + 28);
    if (data > n || n - data < e.csize)
        return bad(err, path, "a zip whose entry's data is cut short");
    if (e.method == 0 && e.csize != e.usize)
        return bad(err, path, "a stored zip entry whose sizes differ");
    unsigned char *buf = malloc((size_t)e.usize + 1);
    if (!buf)
        return cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
    if (e.method == 0)
        memcpy(buf, d + data, e.usize);
    else if ((st = inflate_entry(d + data, &e, buf, path, err)) != CS_OK) {
        free(buf);
        return st;
    }
    if (crc32(0L, buf, e.usize) != e.crc) {
        free(buf);
        return bad(err, path, "the zip entry fails its CRC-32 check");
    }
    buf[e.usize] = '\0';
    *out = buf;
    *out_n = e.usize;
    return CS_OK;
}

cs_status cs_roster_unpack(const unsigned char *data, size_t n, const char *path,
                           unsigned char **out, size_t *out_n, cs_error *err)
{
    *out = NULL;
    *out_n = 0;
    size_t eocd;
    bool zip = n >= 4 && (is_sig(data, 3, 4) || is_sig(data, 5, 6));
    if (zip && !find_eocd(data, n, &eocd))
        return bad(err, path, "a zip without its central directory (cut short?)");
    if (zip)
        return unzip(data, n, eocd, path, out, out_n, err);
    if (n > CS_ROSTER_MAX_BYTES)
        return cs_error_set(err, CS_ELIMIT, "%s: %zu bytes, more than the %zu a roster may have",
                            path, n, CS_ROSTER_MAX_BYTES);
    unsigned char *buf = malloc(n + 1);
    if (!buf)
        return cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
    if (n > 0)
        memcpy(buf, data, n);
    buf[n] = '\0';
    *out = buf;
    *out_n = n;
    return CS_OK;
}
