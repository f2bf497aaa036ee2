"""CSV manifests: the JSON Lines manifest as a table (a file named *.csv).

The first non-blank line is the header; every other non-blank line is one job.
Columns are the job keys (id, body, pattern, fabric, pose, frame, skeleton) and,
flat, the settings keys (particle_distance_mm, max_frames, render, ...), so a
table made with pandas or a spreadsheet needs no nested JSON. An optional
`settings` column holds a JSON object for the rest (e.g. aliases); a key may be
given in one place only. An empty cell means "not given" (the default).

Cells are typed by their column: frame and integer settings as integers, number
settings as numbers, booleans as true/false (also 1/0, yes/no), aliases only in
the `settings` JSON column. Invariant: a CSV row yields exactly the object the
same job's JSON line would, so both formats share one validator (_check_job)
and one content hash.

A job must fit on one line (a quoted field spanning lines is an error), so line
numbers in errors are the file's lines and over-long lines are refused unread.
"""
import csv
import io
import json
import math

from .manifest import JOB_KEYS, SETTINGS, _NUM

_STRING_KEYS = {"id", "body", "pattern", "fabric", "pose", "skeleton", "motion", "frames", "map"}
_TRUE, _FALSE = {"true", "1", "yes"}, {"false", "0", "no"}


def _parse_cell(column, text):
    """The JSON value of one non-empty cell, or raises ValueError."""
    if column in _STRING_KEYS:
        return text
    if column == "frame":
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"frame: expected an integer, got {text!r}") from None
    if column == "settings":
        try:
            value = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"settings: not JSON ({e.msg} at column {e.colno})") from None
        if not isinstance(value, dict):
            raise ValueError(f"settings: expected a JSON object, got {text!r}")
        return value
    kind = SETTINGS[column][0]
    if kind is bool:
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise ValueError(f"{column}: expected true or false, got {text!r}")
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{column}: expected an integer, got {text!r}") from None
    if kind is _NUM:
        try:
            return int(text)
        except ValueError:
            pass
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"{column}: expected a number, got {text!r}") from None
        if not math.isfinite(value):
            raise ValueError(f"{column}: not a finite number")
        return value
    if kind is dict:
        raise ValueError(f"{column}: give it in the settings column as JSON, e.g. "
                         "{\"aliases\": {\"PANEL\": \"ALIAS\"}}")
    return text


def _row(text):
    """The fields of one CSV line, or raises ValueError."""
    try:
        rows = list(csv.reader(io.StringIO(text), strict=True))
    except csv.Error as e:
        raise ValueError(f"not CSV ({e}; a job must fit on one line)") from None
    return rows[0] if rows else []


def csv_objects(lines, max_line_bytes):
    """(line number, job object or None, error or None) for every row of a CSV manifest,
    from `lines` ((number, bytes or None when too long), as manifest._lines yields)."""
    header = None
    for number, raw in lines:
        if raw is None:
            yield number, None, f"line longer than {max_line_bytes} bytes"
            if header is None:
                return
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            yield number, None, f"not UTF-8 ({e.reason} at byte {e.start})"
            if header is None:
                return
            continue
        if header is None:
            text = text.lstrip("\ufeff")  # a spreadsheet's byte order mark
        if not text.strip():
            continue
        try:
            fields = _row(text)
        except ValueError as e:
            yield number, None, str(e)
            if header is None:
                return
            continue
        if header is None:
            header = [h.strip() for h in fields]
            problem = _header_problem(header)
            if problem:
                yield number, None, problem
                return
            continue
        if len(fields) != len(header):
            yield number, None, f"expected {len(header)} fields (the header's), got {len(fields)}"
            continue
        try:
            yield number, _job_object(header, fields), None
        except ValueError as e:
            yield number, None, str(e)


def _header_problem(header):
    known = JOB_KEYS | set(SETTINGS)
    seen = set()
    for name in header:
        if name in seen:
            return f"header: column '{name}' twice"
        seen.add(name)
        if name not in known:
            return (f"header: unknown column '{name}' (job keys: {', '.join(sorted(JOB_KEYS))}; "
                    f"settings: {', '.join(sorted(SETTINGS))})")
    missing = [k for k in ("id", "body", "pattern") if k not in seen]
    if missing:
        return f"header: missing required column(s) {', '.join(missing)}"
    return None


def _job_object(header, fields):
    """The job object (as its JSON line would be) of one row."""
    obj, settings = {}, {}
    nested = None
    for column, cell in zip(header, fields):
        if cell == "":
            continue
        value = _parse_cell(column, cell)
        if column == "settings":
            nested = value
        elif column in JOB_KEYS:
            obj[column] = value
        else:
            settings[column] = value
    if nested is not None:
        twice = sorted(set(nested) & set(settings))
        if twice:
            raise ValueError(f"settings: {', '.join(twice)} given both as a column and in the settings column")
        settings.update(nested)
    if settings:
        obj["settings"] = settings
    return obj


def _cell(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def csv_text(jobs):
    """A CSV manifest of job objects (dicts as JSON lines have them): the job keys used,
    then one flat column per setting used (sorted), aliases in a `settings` JSON column."""
    keys = [k for k in ("id", "body", "pattern", "fabric", "pose", "frame", "skeleton", "motion", "frames", "map")
            if k in ("id", "body", "pattern") or any(k in j for j in jobs)]
    flat = sorted({k for j in jobs for k, v in j.get("settings", {}).items() if SETTINGS[k][0] is not dict})
    nested = any(SETTINGS[k][0] is dict for j in jobs for k in j.get("settings", {}))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(keys + flat + (["settings"] if nested else []))
    for j in jobs:
        s = j.get("settings", {})
        row = [_cell(j.get(k)) for k in keys] + [_cell(s.get(k)) for k in flat]
        if nested:
            rest = {k: v for k, v in s.items() if SETTINGS[k][0] is dict}
            row.append(json.dumps(rest, sort_keys=True) if rest else "")
        w.writerow(row)
    return buf.getvalue()
