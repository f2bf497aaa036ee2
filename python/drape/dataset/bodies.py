"""Bodies of a data set, made by `drape body` from macro values and kept in a folder.

A body is named by its macro values (`mh_g0.5_a0.73_m0.2_w0.41_h0.9_p0.66.obj`),
so equal values give one file, made once and reused by every job and every
later run (regrowing a set makes only the new bodies). Invariant: a body file
is complete when it exists: `drape body` writes into temporary names in the
same folder, and the files are renamed into place with os.replace, the .obj
last (beside it: the skeleton's <name>.joints.json and <name>.body.json, the
`drape body --json` output: the macro values and the measures in cm).
"""
import concurrent.futures as cf
import json
import os
import subprocess
import uuid

from .sampling import MACROS


class BodyError(RuntimeError):
    """`drape body` failed (an internal error: the macro values were validated)."""


def fmt(value):
    """A macro value as written in names and on the command line: shortest exact decimal."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def body_name(values):
    return "mh_" + "_".join(f"{name[0]}{fmt(values[name])}" for name in MACROS) + ".obj"


def _paths(folder, values):
    obj = os.path.join(folder, body_name(values))
    stem = obj[:-4]
    return obj, stem + ".joints.json", stem + ".body.json"


def read_body_info(folder, values):
    """The `drape body --json` output kept beside the body, or None when the body is not made."""
    obj, _, info = _paths(folder, values)
    if not os.path.exists(obj):
        return None
    try:
        with open(info, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def make_body(cli, folder, values):
    """Makes the body of `values` in `folder` unless it is there; returns its info dict."""
    info = read_body_info(folder, values)
    if info is not None:
        return info
    obj, joints, info_path = _paths(folder, values)
    tmp = os.path.join(folder, f".tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    cmd = [cli, "body", "--json", "--out", tmp + ".obj"]
    for name in MACROS:
        cmd += [f"--{name}", fmt(values[name])]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise BodyError(f"{' '.join(cmd)}: exit {proc.returncode}: {proc.stderr.strip()}")
        info = json.loads(proc.stdout)
        info.pop("out", None)  # the temporary name
        with open(tmp + ".body.json", "w", encoding="utf-8") as f:
            f.write(json.dumps(info, indent=1) + "\n")
        os.replace(tmp + ".joints.json", joints)
        os.replace(tmp + ".body.json", info_path)
        os.replace(tmp + ".obj", obj)  # last: the body exists only complete
    finally:
        for ext in (".obj", ".joints.json", ".body.json"):
            try:
                os.remove(tmp + ext)
            except FileNotFoundError:
                pass
    return info


def make_bodies(cli, folder, value_sets, jobs=1):
    """Makes every body of `value_sets` (list of macro dicts) not yet in `folder`,
    `jobs` at once; returns {body name: info}."""
    os.makedirs(folder, exist_ok=True)
    unique = {body_name(v): v for v in value_sets}
    with cf.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {name: pool.submit(make_body, cli, folder, v) for name, v in sorted(unique.items())}
        return {name: fut.result() for name, fut in futures.items()}
