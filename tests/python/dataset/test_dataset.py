"""drape.dataset / `drape dataset`: a seeded, regrowable batch manifest.

Independent answers: the same call must write the same bytes; a smaller count
must be a prefix (job i depends on (seed, i) only); the batch engine's own
reader must accept what is written; the macro values must lie in the asked
ranges and be the ones `drape body` echoed when it made the body; a body's
height measured from its file (`drape body --measure`) must match the height
`drape body` gives for the recorded macro values (no file: measured in memory)
within 1 %; the CSV and JSON Lines manifests of one call must read as the same
jobs; bad arguments exit 2 naming the option and write nothing. One small
end-to-end run: 2 generated jobs (the 2-panel skirt at 30 mm) through `drape batch`.
"""
import csv
import json
import subprocess

import pytest

import drape.batch
import drape.dataset

RANGES = {"gender": "0.2:0.8", "weight": (0.3, 0.6), "height": "0.4:0.9", "muscle": 0.5}


@pytest.fixture(scope="module")
def made(tmp_path_factory, data_dir, cli):
    """10 jobs from a pool of 3 macro bodies: (folder, Dataset, kwargs)."""
    root = tmp_path_factory.mktemp("dataset")
    kw = dict(patterns=[data_dir / "patterns" / "gpg"], count=10, seed=7, ranges=RANGES, body_count=3,
              fabrics=["cotton", "silk"], settings={"particle_distance_mm": 40, "render": False}, cli=str(cli))
    return root, drape.dataset.generate(root / "jobs.jsonl", **kw), kw


def lines(path):
    return path.read_text().splitlines()


def test_same_seed_same_bytes_bodies_reused(made):
    root, ds, kw = made
    first = (root / "jobs.jsonl").read_bytes(), (root / "jobs.dataset.json").read_bytes()
    assert ds.bodies_made == len({s["body"] for s in ds.samples})  # each distinct body made once
    (root / "jobs.jsonl").unlink()
    again = drape.dataset.generate(root / "jobs.jsonl", **kw)
    assert again.bodies_made == 0  # every body already there, reused
    assert ((root / "jobs.jsonl").read_bytes(), (root / "jobs.dataset.json").read_bytes()) == first
    other = drape.dataset.generate(root / "other.jsonl", **dict(kw, seed=8))
    assert lines(root / "other.jsonl") != lines(root / "jobs.jsonl")
    assert len(other.jobs) == 10


def test_smaller_count_is_a_prefix(made):
    root, ds, kw = made
    small = drape.dataset.generate(root / "jobs5.jsonl", **dict(kw, count=5))
    assert lines(root / "jobs5.jsonl") == lines(root / "jobs.jsonl")[:5]
    assert small.samples == ds.samples[:5]
    assert [j["id"] for j in ds.jobs] == [f"{i:06d}_" + j["pattern"].rsplit("/", 1)[1][:-5]
                                         for i, j in enumerate(ds.jobs)]


def test_manifest_passes_the_batch_validator(made, data_dir):
    root, ds, _ = made
    jobs = drape.batch.read_manifest(root / "jobs.jsonl")
    assert [j.id for j in jobs] == [j["id"] for j in ds.jobs]
    patterns = {str(p) for p in (data_dir / "patterns" / "gpg").glob("*.json")}
    for job in jobs:
        assert job.pattern in patterns
        assert job.body.startswith(str(root / "bodies") + "/")
        assert job.fabric in ("cotton", "silk")
        assert job.settings == {"particle_distance_mm": 40, "render": False}


def test_macro_values_within_ranges_and_made_with_them(made):
    root, ds, _ = made
    bounds = {"gender": (0.2, 0.8), "age": (0.5, 1.0), "muscle": (0.5, 0.5), "weight": (0.3, 0.6),
              "height": (0.4, 0.9), "proportions": (0.5, 1.0)}
    assert set(json.loads((root / "jobs.dataset.json").read_text())["parameters"]["macro_ranges"]) == set(bounds)
    seen = set()
    for sample in ds.samples:
        macros = sample["macros"]
        assert set(macros) == set(bounds)
        for name, (lo, hi) in bounds.items():
            assert lo <= macros[name] <= hi, (name, macros)
        # The body file was made with exactly these values (drape body's own echo beside it).
        info = json.loads((root / sample["body"].replace(".obj", ".body.json")).read_text())
        assert {k: info["macro_values"][k] for k in bounds} == macros
        seen.add(tuple(sorted(macros.items())))
    assert 1 < len(seen) <= 3  # a pool of 3 bodies
    # Every body is whole (its joints and info beside it), no temporary file is left.
    names = sorted(p.name for p in (root / "bodies").iterdir())
    objs = [n for n in names if n.endswith(".obj")]
    assert {s["body"].split("/")[-1] for s in ds.samples} <= set(objs)
    assert names == sorted(objs + [n[:-4] + ".joints.json" for n in objs] + [n[:-4] + ".body.json" for n in objs])


def test_generated_body_height_matches_its_macro_values(made, cli):
    root, ds, _ = made
    for sample in {s["body"]: s for s in ds.samples}.values():
        measured = json.loads(subprocess.run([str(cli), "body", "--measure", str(root / sample["body"]), "--json"],
                                             capture_output=True, text=True, check=True).stdout)
        cmd = [str(cli), "body", "--json"]
        for name, value in sample["macros"].items():
            cmd += [f"--{name}", repr(value)]
        expected = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
        h, want = measured["measures_cm"]["height"], expected["measures_cm"]["height"]
        assert abs(h - want) <= 0.01 * want, (sample["body"], h, want)
        assert 100 < h < 250


def test_csv_manifest_reads_as_the_same_jobs(made):
    root, _, kw = made
    drape.dataset.generate(root / "jobs.csv", **kw)
    rows = list(csv.DictReader(open(root / "jobs.csv", newline="")))
    assert list(rows[0]) == ["id", "body", "pattern", "fabric", "particle_distance_mm", "render"]
    assert rows[0]["render"] == "false"
    from_csv = drape.batch.read_manifest(root / "jobs.csv")
    from_jsonl = drape.batch.read_manifest(root / "jobs.jsonl")
    assert [j.to_dict() for j in from_csv] == [dict(j.to_dict(), line=j.line + 1) for j in from_jsonl]


def test_poses_and_fixed_bodies(tmp_path, data_dir, cli):
    body = data_dir / "bodies" / "makehuman" / "base.obj"
    motion = data_dir / "motion" / "cmu_jumping_jacks.bvh"
    ds = drape.dataset.generate(tmp_path / "posed.jsonl", patterns=[data_dir / "patterns" / "gpg" /
                                                                      "skirt_2_panels.json"],
                                count=12, seed=3, bodies=[body], poses=[motion], frames="10:20", pose_share=0.5,
                                cli=str(cli))
    assert ds.bodies_made == 0 and not (tmp_path / "bodies").exists()
    posed = [j for j in ds.jobs if "pose" in j]
    assert 0 < len(posed) < 12
    assert all(10 <= j["frame"] <= 20 and j["pose"] == str(motion) for j in posed)
    assert all(j["body"] == str(body) and j["fabric"] in drape.dataset.FABRIC_PRESETS for j in ds.jobs)
    jobs = drape.batch.read_manifest(tmp_path / "posed.jsonl")
    assert [j.frame for j in jobs] == [j.get("frame") for j in ds.jobs]


def run_dataset(cli, *args):
    return subprocess.run([str(cli), "dataset", *map(str, args)], capture_output=True, text=True)


@pytest.mark.parametrize("args, message", [
    (["--count", "0"], "--count: expected an integer >= 1"),
    (["--count", "2", "--gender", "1.5"], "--gender: 1.5:1.5 is outside 0..1"),
    (["--count", "2", "--weight", "0.8:0.2"], "--weight: 0.8:0.2 is empty"),
    (["--count", "2", "--height", "tall"], "--height: expected V or LO:HI"),
    (["--count", "2", "--fabric", "wool"], "--fabric: unknown preset 'wool'"),
    (["--count", "2", "--setting", "bogus=1"], "--setting: settings: unknown key 'bogus'"),
    (["--count", "2", "--setting", "max_frames=ten"], "--setting: settings.max_frames: wrong type"),
    (["--count", "2", "--frames", "1:2"], "--frames: given without --pose"),
    (["--count", "2", "--body", "BODY", "--gender", "0.5"], "macro ranges do not combine with --body"),
    (["--count", "2", "--pose", "NOPE.bvh"], "--pose: no such file or folder"),
    (["--count", "2", "--patterns", "NOPE"], "--patterns: no such file or folder"),
])
def test_bad_arguments_exit_2_naming_the_option(cli, data_dir, tmp_path, args, message):
    args = [a.replace("BODY", str(data_dir / "bodies" / "makehuman" / "base.obj")) for a in args]
    if "--patterns" not in args:
        args = ["--patterns", data_dir / "patterns" / "gpg"] + args
    proc = run_dataset(cli, *args, "--out", tmp_path / "jobs.jsonl")
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and proc.stderr.startswith("drape dataset: error: "), proc.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_two_generated_jobs_drape_through_batch(cli, data_dir, tmp_path):
    """End to end: `drape dataset` then `drape batch` (the 2-panel skirt at 30 mm, 2 macro bodies)."""
    proc = run_dataset(cli, "--patterns", data_dir / "patterns" / "gpg" / "skirt_2_panels.json", "--count", 2,
                       "--seed", 1, "--out", tmp_path / "jobs.jsonl", "--gender", "0:0.5", "--weight", "0.3:0.6",
                       "--height", "0.3:0.7", "--setting", "particle_distance_mm=30", "--setting", "render=false",
                       "--setting", "max_frames=60")
    assert proc.returncode == 0, proc.stderr
    assert "2 job(s), 2 body file(s) made" in proc.stdout
    out = tmp_path / "out"
    proc = subprocess.run([str(cli), "batch", tmp_path / "jobs.jsonl", "--out", out, "--workers", "2", "--quiet"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(open(out / "summary.csv", newline="")))
    assert [r["status"] for r in rows] == ["done", "done"]
    for r in rows:
        assert int(r["seams_joined"]) == int(r["seams_total"]) > 0
        assert (out / r["id"] / "garment.obj").stat().st_size > 0
