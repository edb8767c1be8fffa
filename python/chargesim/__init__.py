# SPDX-License-Identifier: GPL-3.0-or-later
"""chargesim from Python (issue 53): each command a function over the C
library's request API, returning a Table. No rule, default, column, message
or number format is decided here: the library gives them all.

    import chargesim
    t = chargesim.dice("2d6kh1+d6", exact=True)
    t.rows, t.columns, t.method, t.notes, t.provenance, t.to_csv(), t.to_pandas()

Parameters are keyword arguments or a dict, with the request's keys: an
option's name (method, trials, seed, distance, max_trials: as --max-trials)
or its key (experiment.method), and any other key of run, map and compare
an override as --set KEY=VALUE ("b.KEY": compare's --b). True passes a
flag, False or None leaves it out, a list passes each item.

A run releases the GIL (cffi releases it around the C call) and runs in a
worker thread; Ctrl-C (KeyboardInterrupt) or cancel= (a threading.Event)
cancels it at the core's next safe point, within a second, and nothing is
returned. progress=fn(done, total) reports how far it got."""
import io
import threading
from collections import namedtuple

from ._native import PATHS, ffi, lib, text

__all__ = ["Error", "Cancelled", "Column", "Table", "run", "map", "compare", "dice", "units",
           "api_version", "__version__"]

__version__ = text(lib.cs_request_library_version())
_V = lib.cs_request_api_version()
api_version = (_V // 1000, _V % 1000)

# cs_status (status.h).
_STATUS = {1: "input", 2: "runtime", 3: "out of memory", 4: "limit", 5: "stopped"}
_STOPPED = 5
# The key of each command's operand (request.h).
_OPERAND = {"run": "input", "map": "input", "compare": "input", "dice": "expr", "units": "source"}

Column = namedtuple("Column", "name description unit kind label")


class Error(Exception):
    """A request refused or failed: message is what the command line
    prints, field the parameter at fault (the key given, or the key that was
    missing, or None), status the library's ("input", "runtime", ...)."""

    def __init__(self, message, field=None, status="input"):
        super().__init__(message)
        self.message, self.field, self.status = message, field, status


class Cancelled(Exception):
    """A run stopped by its cancel= event (Ctrl-C raises KeyboardInterrupt)."""


class Table:
    """One table of a request's results, copied out of the library: rows
    (tuples of the cells' text, as the CSV writes them), columns (Column:
    name, description, unit, kind, label), method, notes, warning, provenance
    (command_line, version, inputs, about), title, note; tables: every
    table of the request (run may give several)."""

    def __init__(self, r, i, common):
        ncols = lib.cs_request_table_cols(r, i)
        self.rows = [tuple(text(lib.cs_request_table_cell(r, i, row, c)) for c in range(ncols))
                     for row in range(lib.cs_request_table_rows(r, i))]
        col = ffi.new("cs_request_column *")
        self.columns = []
        for c in range(ncols):
            lib.cs_request_column_at(r, i, c, col)
            self.columns.append(Column(text(col.name), text(col.description), text(col.unit),
                                       text(col.kind), text(col.label)))
        self.title = text(lib.cs_request_table_title(r, i))
        self.note = text(lib.cs_request_table_note(r, i))
        self._text = {f: _table_text(r, i, f) for f in ("csv", "md", "tex")}
        self.method, self.notes, self.warning, self.provenance = common
        self.tables = [self]

    def __repr__(self):
        return "<chargesim.Table %d rows x %d columns, method %s>" % (
            len(self.rows), len(self.columns), self.method or "-")

    def __len__(self):
        return len(self.rows)

    def to_csv(self, format="csv"):
        """The command line's bytes of this table as text (csv, md, tex)."""
        return self._text[format]

    def to_pandas(self):
        """A pandas DataFrame, read from the CSV (numbers as numbers); the
        columns' descriptions in df.attrs["columns"], the rest in df.attrs."""
        import pandas
        df = pandas.read_csv(io.StringIO(self.to_csv()), keep_default_na=False,
                             na_values=[""])
        df.attrs.update(columns={c.name: c._asdict() for c in self.columns}, method=self.method,
                        notes=list(self.notes), provenance=dict(self.provenance))
        return df


def _table_text(r, i, fmt):
    n = lib.cs_request_table_text(r, i, fmt.encode(), ffi.NULL, 0)
    if n < 0:
        raise MemoryError("chargesim: table %d as %s" % (i, fmt))
    buf = ffi.new("char[]", n + 1)
    lib.cs_request_table_text(r, i, fmt.encode(), buf, n + 1)
    return ffi.unpack(buf, n).decode("utf-8")


def _pairs(r, params, kwargs):
    """The (name, key, value) triples to set: options named as the command line
    names them mapped to their request keys; values as text."""
    merged = dict(params or {})
    merged.update(kwargs)
    for name, value in merged.items():
        if value is None or value is False:
            continue
        key = name
        if name == "b" and isinstance(value, dict):
            for k, v in value.items():
                yield "b." + k, "b." + k, v
            continue
        mapped = lib.cs_request_key_of(r, name.encode())
        if mapped != ffi.NULL:
            key = text(mapped)
        for v in value if isinstance(value, (list, tuple)) else [value]:
            yield name, key, v


def _value(v):
    if v is True:
        return ""
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _error(r, keys, status):
    msg = text(lib.cs_request_message(r))
    fault = lib.cs_request_fault(r)
    field = keys[fault] if 0 <= fault < len(keys) else None
    if field is None:
        field = text(lib.cs_request_fault_key(r)) or text(lib.cs_request_message_key(r)) or None
    return Error(msg, field, _STATUS.get(status, "runtime"))


def _provenance(r):
    buf = ffi.new("char[]", 8192)
    lib.cs_request_command_line(r, buf, 8192)
    inputs, path, sha = [], ffi.new("const char **"), ffi.new("const char **")
    while lib.cs_request_input(r, len(inputs), path, sha):
        inputs.append((text(path[0]), text(sha[0])))
    return {"command_line": text(buf), "version": __version__, "inputs": inputs,
            "about": text(lib.cs_request_about(r))}


def _wait(finished, flag, cancel):
    """Waits for the run to finish, setting the cancel flag on Ctrl-C (or any
    exception) or on cancel; the run has always ended when this returns or
    raises, so the request is never freed under it. (An Event, not
    Thread.join: a join interrupted by KeyboardInterrupt may not wait again.)"""
    try:
        while not finished.wait(0.05):
            if cancel is not None and cancel.is_set():
                flag[0] = 1
    except BaseException:
        flag[0] = 1
        while True:
            try:
                if finished.wait(0.05):
                    break
            except BaseException:  # a second Ctrl-C: still wait for the run
                pass
        raise


def _request(cmd, operand, params, kwargs, progress=None, cancel=None, defaults=None):
    r = lib.cs_request_new(cmd.encode())
    if r == ffi.NULL:
        raise MemoryError("chargesim: no request")
    try:
        keys = []
        op = _OPERAND[cmd]
        pairs = ([(op, op, operand)] if operand is not None else []) + \
            list(_pairs(r, params, kwargs))
        for name, key, value in pairs:
            keys.append(name)
            st = lib.cs_request_set(r, key.encode(), _value(value).encode())
            if st:
                raise _error(r, keys, st)
        for key, value in (defaults or {}).items():
            if value and lib.cs_request_default(r, key.encode(), value.encode()):
                raise _error(r, keys, 1)
        flag = ffi.new("int *")
        lib.cs_request_cancel_on(r, flag)
        if progress is not None:
            cb = ffi.callback("void(void *, uint64_t, uint64_t)",
                              lambda user, done, total: progress(done, total))
            lib.cs_request_on_progress(r, cb, ffi.NULL)
        out, finished = [], threading.Event()

        def work():
            try:
                out.append(lib.cs_request_run(r))
            finally:
                finished.set()

        threading.Thread(target=work, name="chargesim-" + cmd, daemon=True).start()
        _wait(finished, flag, cancel)
        st = out[0]
        if st == _STOPPED and flag[0]:
            raise Cancelled("chargesim: %s cancelled" % cmd)
        if st:
            raise _error(r, keys, st)
        said = [text(lib.cs_request_said_line(r, i)) for i in range(lib.cs_request_said(r))]
        note = text(lib.cs_request_note(r))
        # compare's verdict in one sentence (API 0.2), the first of its notes.
        verdict = text(lib.cs_request_verdict(r)) if api_version >= (0, 2) else ""
        warning = lib.cs_request_warning(r)
        common = (text(lib.cs_request_method(r)),
                  ([verdict] if verdict else []) + ([note] if note else []) + said,
                  text(warning) if warning != ffi.NULL else None, _provenance(r))
        tables = [Table(r, i, common) for i in range(lib.cs_request_tables(r))]
        if not tables:
            raise Error("chargesim: %s gave no table" % cmd, None, "runtime")
        for t in tables:
            t.tables = tables
        return tables[0]
    finally:
        lib.cs_request_free(r)


def run(input="-", params=None, *, progress=None, cancel=None, **kwargs):
    """chargesim run INPUT: the experiment's table (run's others in .tables)."""
    return _request("run", input, params, kwargs, progress, cancel)


def map(input="-", params=None, *, progress=None, cancel=None, **kwargs):
    """chargesim map INPUT: the threat map's table."""
    return _request("map", input, params, kwargs, progress, cancel)


def compare(input="-", params=None, *, progress=None, cancel=None, **kwargs):
    """chargesim compare INPUT: A against B (b={"key": value} or "b.key")."""
    return _request("compare", input, params, kwargs, progress, cancel)


def dice(expr=None, params=None, *, progress=None, cancel=None, **kwargs):
    """chargesim dice EXPR: the distribution of a dice expression."""
    return _request("dice", expr, params, kwargs, progress, cancel)


def units(source=None, params=None, *, progress=None, cancel=None, **kwargs):
    """chargesim units SOURCE: a catalogue's or roster's units table. The
    mappings are CS_MAPPINGS's, else those make installed or the source
    tree's; the shipped catalogues CS_DATA's, else beside them."""
    import os
    maps = os.environ.get("CS_MAPPINGS") or PATHS["MAPPINGS"] or "experiments/mappings"
    data = os.environ.get("CS_DATA") or PATHS["DATA"] or ""
    return _request("units", source, params, kwargs, progress, cancel,
                    defaults={"mapping": maps, "data": data})
