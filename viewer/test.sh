#!/usr/bin/env bash
# The viewer's browser test: viewer/test.sh [BUILD_DIR]
# Produces a scene.glb (`drape demo` when the build has it, else the render
# module's scene fixture; or $VIEWER_SCENE), serves viewer/ and the scene on
# 127.0.0.1, and runs test.mjs in headless chromium. Exits non-zero on failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
build=${1:-build}
[[ "$build" = /* ]] || build="$repo/$build"

command -v node >/dev/null || { echo "viewer: node not found (scripts/setup installs it)"; echo "viewer: 0 passed, 1 failed"; exit 1; }
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null && [[ -z "${CHROMIUM:-}" ]]; then
  echo "viewer: chromium not found (apt-get install chromium, or DRAPE_NO_BROWSER=1 to skip)"
  echo "viewer: 0 passed, 1 failed"; exit 1
fi
# Install when node_modules is missing or older than the lock file (a package was added).
if [[ ! -f "$here/node_modules/.package-lock.json" || "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi

work=$(mktemp -d)
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

drape="$build/apps/drape/drape"
if [[ -n "${VIEWER_SCENE:-}" ]]; then
  cp "$VIEWER_SCENE" "$work/scene.glb"
elif [[ -x "$drape" ]] && "$drape" --help 2>/dev/null | grep -qE '^\s+demo\b'; then
  echo "viewer: scene from drape demo"
  if ! "$drape" demo --out "$work" >"$work/demo.log" 2>&1; then
    echo "viewer: drape demo failed:"; tail -n 20 "$work/demo.log"; echo "viewer: 0 passed, 1 failed"; exit 1
  fi
elif [[ -x "$build/tests/render/render_scene_fixture" ]]; then
  echo "viewer: scene from render_scene_fixture (no drape demo in $build)"
  "$build/tests/render/render_scene_fixture" "$work" >/dev/null
else
  echo "viewer: no scene.glb source: build drape (demo) or render_scene_fixture in $build first"
  echo "viewer: 0 passed, 1 failed"; exit 1
fi
[[ -s "$work/scene.glb" ]] || { echo "viewer: scene.glb was not written"; echo "viewer: 0 passed, 1 failed"; exit 1; }

# Serve with `drape view` (the C++ server users get) when built, else with serve.mjs.
if [[ -x "$drape" ]] && "$drape" --help 2>/dev/null | grep -qE '^\s+view\b'; then
  echo "viewer: served by drape view"
  "$drape" view "$work" --port 0 --viewer "$here" >"$work/server.log" 2>&1 &
else
  echo "viewer: served by serve.mjs"
  node "$here/serve.mjs" --port 0 --results "$work" >"$work/server.log" 2>&1 &
fi
server_pid=$!
url=""
for _ in $(seq 100); do
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$work/server.log" | head -n1 || true)
  [[ -n "$url" ]] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
[[ -n "$url" ]] || { echo "viewer: static server did not start:"; cat "$work/server.log"; echo "viewer: 0 passed, 1 failed"; exit 1; }

status=0
node "$here/test.mjs" "$url" results/scene.glb "$work/scene.glb" || status=$?

# A skinned scene (dress --pose: body and garment bound to the skeleton) must
# pass the validator too.
if [[ -x "$drape" ]] && "$drape" dress --help 2>/dev/null | grep -q -- '--pose'; then
  repo_data="$repo/data"
  if "$drape" dress --body "$repo_data/bodies/makehuman/base.obj" \
      --pattern "$repo_data/patterns/garmentcode/flare_skirt_specification.json" --particle-distance 40 \
      --max-frames 30 --pose "$repo_data/motion/cmu_jumping_jacks.bvh" --frame 40 --pose-frames 10 \
      --no-render --quiet --out "$work/posed" >"$work/posed.log" 2>&1 &&
     (cd "$here" && node validate_gltf.mjs "$work/posed/scene.glb"); then
    echo "ok   skinned scene.glb (dress --pose) passes the glTF validator"
  else
    echo "FAIL skinned scene.glb (dress --pose) passes the glTF validator"; tail -n 5 "$work/posed.log"; status=1
  fi
fi
# An animation.glb (drape animate: 4 frames of the jumping jacks, coarse)
# played by the viewer: frames, slider, play/pause, strain toggle.
if [[ -x "$drape" ]] && "$drape" --help 2>/dev/null | grep -qE '^\s+animate\b'; then
  repo_data="$repo/data"
  if "$drape" animate --body "$repo_data/bodies/makehuman/base.obj" \
      --pattern "$repo_data/patterns/garmentcode/flare_skirt_specification.json" --particle-distance 40 \
      --max-frames 30 --motion "$repo_data/motion/cmu_jumping_jacks.bvh" --frames 40:43 --blend-frames 5 \
      --settle-frames 1 --sheet-frames 0 --no-mp4 --quiet --out "$work/anim" >"$work/anim.log" 2>&1; then
    node "$here/test_animation.mjs" "$url" results/anim/animation.glb "$work/anim/animation.glb" 4 || status=1
  else
    echo "FAIL drape animate for the animation test:"; tail -n 5 "$work/anim.log"; status=1
  fi
fi
exit $status
