# SPDX-License-Identifier: GPL-3.0-or-later
"""The C library under the module: cffi's ABI mode over libchargesim.so's
request API (include/chargesim/request.h, reqapi.h). The declarations here
are the header's, for API version 0.1; a newer minor version only adds."""
import os

import cffi

CDEF = """
typedef struct cs_request cs_request;
typedef struct cs_request_column {
    const char *name, *description, *unit, *kind, *label;
    const char *_later[8]; /* members a later minor version adds at the end */
} cs_request_column;
int cs_request_api_version(void);
const char *cs_request_library_version(void);
cs_request *cs_request_new(const char *cmd);
void cs_request_free(cs_request *r);
int cs_request_set(cs_request *r, const char *key, const char *value);
int cs_request_default(cs_request *r, const char *key, const char *value);
void cs_request_on_progress(cs_request *r, void (*fn)(void *, uint64_t, uint64_t), void *user);
void cs_request_cancel_on(cs_request *r, const int *flag);
const char *cs_request_key_of(const cs_request *r, const char *name);
int cs_request_run(cs_request *r);
int cs_request_tables(const cs_request *r);
int cs_request_table_rows(cs_request *r, int i);
int cs_request_table_cols(cs_request *r, int i);
const char *cs_request_table_cell(cs_request *r, int i, int row, int col);
const char *cs_request_table_title(cs_request *r, int i);
const char *cs_request_table_note(cs_request *r, int i);
long cs_request_table_text(cs_request *r, int i, const char *format, char *buf, size_t cap);
bool cs_request_column_at(cs_request *r, int i, int col, cs_request_column *out);
const char *cs_request_method(const cs_request *r);
const char *cs_request_note(const cs_request *r);
const char *cs_request_verdict(const cs_request *r);
const char *cs_request_warning(const cs_request *r);
const char *cs_request_message(const cs_request *r);
const char *cs_request_message_key(const cs_request *r);
int cs_request_fault(const cs_request *r);
const char *cs_request_fault_key(const cs_request *r);
void cs_request_command_line(const cs_request *r, char *buf, size_t cap);
int cs_request_said(const cs_request *r);
const char *cs_request_said_line(const cs_request *r, int i);
const char *cs_request_text(const cs_request *r);
bool cs_request_input(const cs_request *r, int i, const char **path, const char **sha256);
const char *cs_request_about(const cs_request *r);
"""

API_MAJOR = 0
API_MINOR = 1


def _paths():
    """LIBRARY, MAPPINGS, DATA: make python's or make install's, else none."""
    try:
        from . import _libpath  # written by make python / make install
    except ImportError:
        _libpath = None
    return {k: getattr(_libpath, k, None) for k in ("LIBRARY", "MAPPINGS", "DATA")}


PATHS = _paths()
ffi = cffi.FFI()
ffi.cdef(CDEF)
# CHARGESIM_LIBRARY overrides; else the path make wrote; else the soname,
# found as the dynamic linker finds it (an install under /usr/lib, ldconfig).
lib = ffi.dlopen(os.environ.get("CHARGESIM_LIBRARY") or PATHS["LIBRARY"] or "libchargesim.so.0")
_version = lib.cs_request_api_version()
if _version // 1000 != API_MAJOR or _version % 1000 < API_MINOR:
    raise ImportError("chargesim: the library's API is %d.%d, the module needs %d.%d or a later 0.x"
                      % (_version // 1000, _version % 1000, API_MAJOR, API_MINOR))


def text(p):
    """A C string as str ("" for NULL)."""
    return ffi.string(p).decode("utf-8") if p != ffi.NULL else ""
