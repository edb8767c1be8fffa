/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_REQAPI_H
#define CHARGESIM_REQAPI_H
/* The request API as a library (issue 53): the visibility of its
 * functions, its version, and the few calls a binding needs beside
 * request.h's (a table's cells and its text, a cancel flag, an option's
 * key). libchargesim.so exports the functions of request.h and of this
 * header, nothing else; the other headers installed beside them (error.h,
 * table.h, status.h) are there for their types.
 *
 * Versions. CHARGESIM_API_VERSION_MAJOR changes when a function, a type or
 * a contract of this API changes or goes (the soname, libchargesim.so.N,
 * changes with it). A minor version may only add: a function, a request
 * key, a command, a column or a note's words, a member at the end of
 * cs_request_column (which the library fills, never the caller). A
 * program built against minor M runs with any library of the same major
 * whose minor is M or more (cs_request_api_version tells). In
 * src/req/reqapi.c. */
#include <stddef.h>

#if defined(__GNUC__)
#define CS_API __attribute__((visibility("default")))
/* Around a block of declarations: each of them is exported. */
#define CS_API_BEGIN _Pragma("GCC visibility push(default)")
#define CS_API_END _Pragma("GCC visibility pop")
#else
#define CS_API
#define CS_API_BEGIN
#define CS_API_END
#endif

#define CHARGESIM_API_VERSION_MAJOR 0
#define CHARGESIM_API_VERSION_MINOR 2

typedef struct cs_request cs_request;

/* The library's API version, major * 1000 + minor. */
CS_API int cs_request_api_version(void);
/* The program version the library was built from ("0.17.0"). */
CS_API const char *cs_request_library_version(void);

/* Table i's size (0 past the last), a cell's text ("" when empty or
 * outside), its title and note ("" when none). */
CS_API int cs_request_table_rows(cs_request *r, int i);
CS_API int cs_request_table_cols(cs_request *r, int i);
CS_API const char *cs_request_table_cell(cs_request *r, int i, int row, int col);
CS_API const char *cs_request_table_title(cs_request *r, int i);
CS_API const char *cs_request_table_note(cs_request *r, int i);
/* Table i as format ("csv", "md", "tex") text, the command line's bytes,
 * into buf (cap bytes, NUL-terminated when cap > 0): the text's length (a
 * larger cap when it is cap or more), or -1 for no such table or format,
 * or out of memory. */
CS_API long cs_request_table_text(cs_request *r, int i, const char *format, char *buf,
                                  size_t cap);
/* Cancel when *flag is non-zero (read atomically from the worker
 * threads; another thread or a signal handler sets it): as
 * cs_request_on_cancel. */
CS_API void cs_request_cancel_on(cs_request *r, const int *flag);
/* The request key that option `name` ("--method", "method") of r's
 * command sets ("experiment.method"), or NULL: no such option, or the
 * front end's own (-o). */
CS_API const char *cs_request_key_of(const cs_request *r, const char *name);
/* The last error's message (the command line's words) and key ("" when
 * none). */
CS_API const char *cs_request_message(const cs_request *r);
CS_API const char *cs_request_message_key(const cs_request *r);

#endif
