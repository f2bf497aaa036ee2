"""drape.dataset.generate: a `drape batch` manifest sampled from patterns, bodies,
fabrics and poses (sampling.py), its macro bodies made (bodies.py).

Everything is checked before anything is written (bad arguments raise
DatasetError naming the option or file: exit 2 from the CLI). The manifest is
written through a temporary file in its folder, validated by the batch engine's
own reader (drape.batch.read_manifest), then renamed into place: what is
written is always a manifest `drape batch` accepts. Paths in it are relative to
the manifest's folder when inside it (the set moves as one folder), absolute
otherwise. Beside it, <stem>.dataset.json records the parameters and each
job's choices (macro values and the body's measures in cm): the labels.
Neither file holds a time or a host, so the same call writes the same bytes.
"""
import json
import os
import re
import uuid

from ..batch.errors import ManifestError
from ..batch.manifest import check_settings, is_csv, read_manifest
from ..batch.manifest_csv import csv_text
from .bodies import body_name, make_bodies
from .sampling import DEFAULT_RANGES, MACROS, check_range, sample_job

FABRIC_PRESETS = ("cotton", "denim", "silk", "jersey")  # `drape dress --fabric`
BODY_EXTENSIONS = (".obj", ".glb", ".gltf")
# .json files in a pattern folder that are not patterns: SVG seams sidecars, and the
# generator's own outputs (a set's labels, a body's info and joints).
NOT_PATTERNS = (".seams.json", ".dataset.json", ".body.json", ".joints.json")


class DatasetError(ValueError):
    """Bad arguments of the generator (the CLI exits 2); the message names the option or file."""


class Dataset:
    """What generate() wrote: `manifest` and `sidecar` (paths), `jobs` (the manifest's job
    objects), `samples` (each job's choices, as in the sidecar), `bodies_made`."""

    def __init__(self, manifest, sidecar, jobs, samples, bodies_made):
        self.manifest, self.sidecar, self.jobs, self.samples = manifest, sidecar, jobs, samples
        self.bodies_made = bodies_made

    def __repr__(self):
        return f"Dataset({self.manifest!r}, {len(self.jobs)} jobs)"


def _files(paths, extensions, what, skip=()):
    """Files of `paths` (files, or folders searched recursively for `extensions`), sorted, unique."""
    found = set()
    for p in paths:
        p = os.path.abspath(os.fspath(p))
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                for n in names:
                    low = n.lower()
                    if low.endswith(extensions) and not low.endswith(skip) and not n.startswith("."):
                        found.add(os.path.join(root, n))
        elif os.path.isfile(p):
            found.add(p)
        else:
            raise DatasetError(f"{what}: no such file or folder '{p}'")
    if paths and not found:
        raise DatasetError(f"{what}: no {'/'.join(extensions)} files in {', '.join(map(str, paths))}")
    return sorted(found)


def bvh_frames(path):
    """The frame count of a BVH file (its `Frames:` line)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"\s*Frames:\s*(\d+)", line)
                if m:
                    return int(m.group(1))
    except OSError as e:
        raise DatasetError(f"--pose: cannot read '{path}' ({e.strerror})") from None
    raise DatasetError(f"--pose: '{path}' has no 'Frames:' line (not a BVH motion)")


def parse_range(name, text):
    """'V' or 'LO:HI' -> (lo, hi), checked."""
    try:
        parts = [float(x) for x in str(text).split(":")]
    except ValueError:
        raise DatasetError(f"--{name}: expected V or LO:HI (numbers in 0..1), got '{text}'") from None
    if len(parts) not in (1, 2):
        raise DatasetError(f"--{name}: expected V or LO:HI (numbers in 0..1), got '{text}'")
    lo, hi = parts[0], parts[-1]
    try:
        check_range(name, lo, hi)
    except ValueError as e:
        raise DatasetError(str(e)) from None
    return lo, hi


def _frames(text):
    m = re.fullmatch(r"\s*(\d+)\s*(?::\s*(\d+)\s*)?", str(text))
    if not m:
        raise DatasetError(f"--frames: expected K or A:B (0-based frames), got '{text}'")
    a = int(m.group(1))
    b = int(m.group(2)) if m.group(2) is not None else a
    if a > b:
        raise DatasetError(f"--frames: {a}:{b} is empty")
    return a, b


def _job_id(i, pattern):
    stem = os.path.basename(pattern)
    for ext in (".json", ".svg"):
        if stem.lower().endswith(ext):
            stem = stem[: -len(ext)]
    stem = re.sub(r"[^A-Za-z0-9_.+=-]", "_", stem)[:100]
    return f"{i:06d}_{stem}" if stem else f"{i:06d}"


def _sidecar_path(manifest):
    base, ext = os.path.splitext(manifest)
    return base + ".dataset.json"


def generate(out, *, patterns, count, seed=0, bodies=None, ranges=None, body_count=None, bodies_dir=None,
             fabrics=None, poses=None, frames=None, pose_share=1.0, skeleton=None, settings=None, cli=None,
             jobs=None):
    """Writes a `drape batch` manifest of `count` jobs to `out` (JSON Lines; CSV when named
    *.csv) and returns a Dataset. Job i is sampled from random.Random seeded by (seed, i):
    the same arguments write the same bytes, and a larger count keeps the first jobs.

    patterns: pattern files or folders (every *.json inside, recursively, NOT_PATTERNS
    skipped), one sorted list. bodies: fixed body files or folders (.obj/.glb/.gltf)
    instead of macro bodies. ranges: {macro: (lo, hi) or "LO:HI" or value} over the
    defaults (sampling.DEFAULT_RANGES); the bodies are made by `drape body` into
    bodies_dir (default: <out's folder>/bodies), reused when there. body_count: a pool
    of that many macro bodies the jobs draw from (default: each job its own body).
    fabrics: presets or fabric .json files (default: all four presets). poses: BVH files
    or folders; each job is posed with probability pose_share at a frame in `frames`
    ("A:B", default every frame) of a random one; skeleton: `drape dress --skeleton`.
    settings: the `drape dress` settings of every job (batch manifest `settings`).
    cli: the drape executable (default: the build's). jobs: bodies made at once.
    """
    from ..batch.engine import default_cli

    out = os.path.abspath(os.fspath(out))
    folder = os.path.dirname(out)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise DatasetError(f"--count: expected an integer >= 1, got {count!r}")
    if not os.path.isdir(folder):
        raise DatasetError(f"--out: folder '{folder}' does not exist")
    pattern_files = _files(list(patterns or []), (".json",), "--patterns", skip=NOT_PATTERNS)
    if not pattern_files:
        raise DatasetError("--patterns: give at least one pattern file or folder")
    body_files = _files(list(bodies or []), BODY_EXTENSIONS, "--body")
    given = dict(ranges or {})
    unknown = sorted(set(given) - set(MACROS))
    if unknown:
        raise DatasetError(f"unknown macro value(s) {', '.join(unknown)} (known: {', '.join(MACROS)})")
    if body_files and given:
        raise DatasetError(f"--{sorted(given)[0]}: macro ranges do not combine with --body (fixed body files)")
    if body_files and body_count:
        raise DatasetError("--body-count: a pool of macro bodies does not combine with --body")
    if body_count is not None and (isinstance(body_count, bool) or not isinstance(body_count, int)
                                   or body_count < 1):
        raise DatasetError(f"--body-count: expected an integer >= 1, got {body_count!r}")
    macro_ranges = dict(DEFAULT_RANGES)
    for name, r in given.items():
        if isinstance(r, (tuple, list)) and len(r) == 2:
            r = f"{float(r[0])!r}:{float(r[1])!r}"
        macro_ranges[name] = parse_range(name, r)
    fabric_list = list(fabrics) if fabrics else list(FABRIC_PRESETS)
    fabric_values = []
    for fab in fabric_list:
        if fab.lower().endswith(".json") or os.sep in fab:
            path = os.path.abspath(fab)
            if not os.path.isfile(path):
                raise DatasetError(f"--fabric: no such file '{fab}'")
            fabric_values.append(path)
        elif fab in FABRIC_PRESETS:
            fabric_values.append(fab)
        else:
            raise DatasetError(f"--fabric: unknown preset '{fab}' (presets: {', '.join(FABRIC_PRESETS)}; "
                               "or a fabric .json file)")
    pose_files = _files(list(poses or []), (".bvh",), "--pose")
    window = _frames(frames) if frames is not None else None
    if window and not pose_files:
        raise DatasetError("--frames: given without --pose")
    pose_list = []
    for p in pose_files:
        n = bvh_frames(p)
        a, b = window if window else (0, n - 1)
        if n < 1 or a > n - 1:
            raise DatasetError(f"--frames: {a}:{b} is past the last frame of '{p}' ({n} frames)")
        pose_list.append((p, a, min(b, n - 1)))
    if not (0.0 <= pose_share <= 1.0):
        raise DatasetError(f"--pose-share: expected 0..1, got {pose_share!r}")
    if skeleton is not None:
        skeleton = os.path.abspath(skeleton)
        if not pose_files:
            raise DatasetError("--skeleton: given without --pose")
        if not os.path.isfile(skeleton):
            raise DatasetError(f"--skeleton: no such file '{skeleton}'")
    settings = dict(settings or {})
    try:
        check_settings(settings)
    except ValueError as e:
        raise DatasetError(f"--setting: {e}") from None
    bodies_dir = os.path.abspath(bodies_dir or os.path.join(folder, "bodies"))
    cli = os.path.abspath(cli or default_cli())
    if not os.access(cli, os.X_OK):
        raise DatasetError(f"--drape: no drape executable at '{cli}'")

    # Sample (no files yet), then make the bodies, then write the manifest.
    picks = [sample_job(i, seed, pattern_files, fabric_values, body_files, macro_ranges, body_count, pose_list,
                        pose_share) for i in range(count)]
    made_before = set(os.listdir(bodies_dir)) if os.path.isdir(bodies_dir) else set()
    infos = {}
    if not body_files:
        infos = make_bodies(cli, bodies_dir, [p["macros"] for p in picks],
                            jobs or len(os.sched_getaffinity(0)))
    bodies_made = sum(1 for name in infos if name not in made_before)

    def rel(path):
        r = os.path.relpath(path, folder)
        return path if r == os.pardir or r.startswith(os.pardir + os.sep) else r

    manifest_jobs, samples = [], []
    for i, p in enumerate(picks):
        body = p["body"] if body_files else os.path.join(bodies_dir, body_name(p["macros"]))
        job = {"id": _job_id(i, p["pattern"]), "body": rel(body), "pattern": rel(p["pattern"])}
        job["fabric"] = rel(p["fabric"]) if os.path.isabs(p["fabric"]) else p["fabric"]
        if p["pose"] is not None:
            job["pose"], job["frame"] = rel(p["pose"]), p["frame"]
            if skeleton:
                job["skeleton"] = rel(skeleton)
        if settings:
            job["settings"] = settings
        manifest_jobs.append(job)
        sample = dict(job)
        sample.pop("settings", None)
        if not body_files:
            sample["macros"] = p["macros"]
            sample["measures_cm"] = infos[body_name(p["macros"])].get("measures_cm")
        samples.append(sample)

    if is_csv(out):
        text = csv_text(manifest_jobs)
    else:
        text = "".join(json.dumps(j) + "\n" for j in manifest_jobs)
    params = {"seed": seed, "count": count, "patterns": [rel(p) for p in pattern_files],
              "bodies": [rel(b) for b in body_files] if body_files else None,
              "macro_ranges": None if body_files else {k: list(macro_ranges[k]) for k in MACROS},
              "body_count": body_count, "bodies_dir": None if body_files else rel(bodies_dir),
              "fabrics": [rel(f) if os.path.isabs(f) else f for f in fabric_values],
              "poses": [[rel(p), a, b] for p, a, b in pose_list], "pose_share": pose_share,
              "skeleton": rel(skeleton) if skeleton else None, "settings": settings}
    sidecar = _sidecar_path(out)
    _write_validated(out, text)
    _write(sidecar, json.dumps({"manifest": os.path.basename(out), "parameters": params, "jobs": samples},
                               indent=1) + "\n")
    return Dataset(out, sidecar, manifest_jobs, samples, bodies_made)


def _write(path, text):
    tmp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.tmp-{uuid.uuid4().hex[:8]}")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def _write_validated(path, text):
    """Writes the manifest through a temporary file the batch reader accepts, else raises."""
    ext = ".csv" if is_csv(path) else ".jsonl"
    tmp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.tmp-{uuid.uuid4().hex[:8]}{ext}")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            read_manifest(tmp)
        except ManifestError as e:
            raise DatasetError(f"the generated manifest is not valid (a bug): {e}") from None
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
