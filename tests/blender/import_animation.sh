#!/usr/bin/env bash
# Blender 3.4 imports drape animate's outputs (tests/blender/import_animation.py).
#   tests/blender/import_animation.sh DRAPE_BINARY DATA_DIR
# Exits 77 (ctest: skipped) when blender is not installed: Blender is not a
# requirement of drape or of CI.
set -euo pipefail
drape=$1
data=$2
command -v blender >/dev/null || { echo "blender not installed: skipped"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$drape" animate --body "$data/bodies/makehuman/base.obj" \
  --pattern "$data/patterns/garmentcode/flare_skirt_specification.json" --particle-distance 40 \
  --max-frames 30 --motion "$data/motion/cmu_jumping_jacks.bvh" --frames 40:43 --blend-frames 5 \
  --settle-frames 1 --sheet-frames 0 --no-mp4 --quiet --out "$work/anim"
# Blender prints its own start-up lines; the script's lines start with ok / FAIL.
status=0
blender -b --factory-startup -t 2 --python-exit-code 1 --python "$here/import_animation.py" -- "$work/anim" \
  >"$work/blender.log" 2>&1 || status=$?
grep -E '^(ok|FAIL|blender import|Traceback|  File|[A-Za-z]*Error)' "$work/blender.log" || tail -n 20 "$work/blender.log"
exit "$status"
