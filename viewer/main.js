// drape viewer: shows a scene.glb written by drape (nodes "body" and
// "garment"; the garment carries COLOR_0 = strain colour and _STRAIN), and
// plays an animation.glb (`drape animate`: one morph target per frame and a
// STEP weights animation showing one at a time) with play/pause, a frame
// slider and the frame number.
// Open with ?file=URL or drop a file on the page. window.drapeViewer exposes
// the state to the browser test (viewer/test.mjs).

import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

const PLAIN_GARMENT = new THREE.Color(0x7a4db8);  // purple, as render.png; not on the strain ramp
const SKIN = new THREE.Color(0xddb092);  // as render.png's body
const container = document.getElementById('view');
const statusEl = document.getElementById('status');
const toggles = {
  body: document.getElementById('toggle-body'),
  garment: document.getElementById('toggle-garment'),
  strain: document.getElementById('toggle-strain'),
};

const renderer = new THREE.WebGLRenderer({ antialias: true });
renderer.setPixelRatio(window.devicePixelRatio);
renderer.setSize(container.clientWidth, container.clientHeight);
renderer.setClearColor(0xf2f2f2);
container.appendChild(renderer.domElement);

const scene = new THREE.Scene();
scene.add(new THREE.HemisphereLight(0xffffff, 0x8a8a8a, 1.6));
const sun = new THREE.DirectionalLight(0xffffff, 1.6);
sun.position.set(-1, 2, 3);
scene.add(sun);
const camera = new THREE.PerspectiveCamera(35, container.clientWidth / container.clientHeight, 0.01, 1000);
camera.position.set(0, 1, 4);
const controls = new OrbitControls(camera, renderer.domElement);
controls.addEventListener('change', render);

// What is loaded: root object, body meshes, garment meshes with their materials;
// anim: the file's first animation (null without one) as frames.
const state = { root: null, body: [], garment: [], strainRange: null, file: null, anim: null };
const animUi = {
  box: document.getElementById('anim'),
  play: document.getElementById('anim-play'),
  slider: document.getElementById('anim-slider'),
  label: document.getElementById('anim-frame'),
};

function render() { renderer.render(scene, camera); }

function setStatus(text, isError = false) {
  statusEl.textContent = text;
  statusEl.classList.toggle('error', isError);
}

function meshesUnder(object) {
  const out = [];
  object?.traverse((o) => { if (o.isMesh) out.push(o); });
  return out;
}

function prepareGarment(mesh) {
  // Plain mode always uses drape's garment colour, whatever the file's base
  // colour (which multiplies COLOR_0 and is often white): a colour that neither
  // the skin nor the strain ramp produces, so the garment reads at a glance.
  const common = { side: THREE.DoubleSide, roughness: 0.85, metalness: 0 };
  mesh.userData.plain = new THREE.MeshStandardMaterial({ ...common, color: PLAIN_GARMENT });
  mesh.userData.strain = mesh.geometry.getAttribute('color')
    ? new THREE.MeshStandardMaterial({ ...common, color: 0xffffff, vertexColors: true })
    : null;
}

function strainRangeOf(meshes) {
  let min = Infinity, max = -Infinity;
  for (const m of meshes) {
    const a = m.geometry.getAttribute('_strain');
    if (!a) continue;
    for (let i = 0; i < a.count; i++) { const v = a.getX(i); if (Number.isFinite(v)) { min = Math.min(min, v); max = Math.max(max, v); } }
  }
  if (!(min <= max)) return null;
  // The ramp's range as drape's auto_strain_range computes it for COLOR_0:
  // [min(0, 1st percentile), max(0.01, 99th percentile)].
  const all = [];
  for (const m of meshes) {
    const a = m.geometry.getAttribute('_strain');
    if (a) for (let i = 0; i < a.count; i++) { const v = a.getX(i); if (Number.isFinite(v)) all.push(v); }
  }
  all.sort((x, y) => x - y);
  const pick = (q) => all[Math.floor(q * (all.length - 1))];
  return { min, max, rampMin: Math.min(0, pick(0.01)), rampMax: Math.max(0.01, pick(0.99)) };
}

function applyToggles() {
  for (const m of state.body) m.visible = toggles.body.checked;
  const anyStrain = state.garment.some((m) => m.userData.strain);
  toggles.strain.disabled = !anyStrain;
  for (const m of state.garment) {
    m.visible = toggles.garment.checked;
    m.material = toggles.strain.checked && m.userData.strain ? m.userData.strain : m.userData.plain;
  }
  document.getElementById('legend').style.display = toggles.strain.checked && anyStrain ? 'block' : 'none';
  render();
}
for (const t of Object.values(toggles)) t.addEventListener('change', applyToggles);

function frame(object) {
  const box = new THREE.Box3().setFromObject(object);
  const size = box.getSize(new THREE.Vector3());
  const center = box.getCenter(new THREE.Vector3());
  const radius = Math.max(size.length() / 2, 1e-6);
  const dist = radius / Math.sin(THREE.MathUtils.degToRad(camera.fov / 2)) * 0.9;
  camera.near = dist / 100;
  camera.far = dist * 100;
  camera.position.copy(center).add(new THREE.Vector3(0, 0, dist));  // front view: the body faces +Z
  camera.updateProjectionMatrix();
  controls.target.copy(center);
  controls.update();
}

// The frames of an animation: the sorted key times of its tracks (drape
// writes one key per frame, STEP). Frame k is shown by setting the action's
// time to its key time; the action plays once and clamps, so the last key
// (at the clip's end) does not wrap round to the first as a loop would.
function setupAnimation(root, clips) {
  pause();
  state.anim = null;
  const clip = clips?.[0];
  animUi.box.classList.toggle('shown', !!clip);
  if (!clip) return;
  const keys = new Set();
  for (const t of clip.tracks) for (const k of t.times) keys.add(k);
  const times = [...keys].sort((a, b) => a - b);
  if (!times.length) return;
  const mixer = new THREE.AnimationMixer(root);
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  const step = times.length > 1 ? (times[times.length - 1] - times[0]) / (times.length - 1) : 1 / 30;
  state.anim = { mixer, action, times, frames: times.length, frame: 0, playing: false, step, timer: null, started: 0 };
  animUi.slider.max = String(times.length - 1);
  setFrame(0);
}

function setFrame(k) {
  const a = state.anim;
  if (!a) return;
  a.frame = Math.max(0, Math.min(a.frames - 1, Math.round(k)));
  a.action.enabled = true;
  a.action.paused = false;
  a.action.time = a.times[a.frame];
  a.mixer.update(0);
  animUi.slider.value = String(a.frame);
  animUi.label.textContent = `frame ${a.frame + 1} / ${a.frames}`;
  render();
}

// Plays at the file's frame rate from the current frame, looping.
function play() {
  const a = state.anim;
  if (!a || a.playing) return;
  a.playing = true;
  animUi.play.textContent = 'pause';
  const t0 = performance.now(), f0 = a.frame;
  const tick = () => {
    if (!a.playing) return;
    const k = (f0 + Math.floor((performance.now() - t0) / 1000 / a.step)) % a.frames;
    if (k !== a.frame) setFrame(k);
    a.timer = requestAnimationFrame(tick);
  };
  a.timer = requestAnimationFrame(tick);
}

function pause() {
  const a = state.anim;
  animUi.play.textContent = 'play';
  if (!a) return;
  a.playing = false;
  if (a.timer !== null) cancelAnimationFrame(a.timer);
  a.timer = null;
}

animUi.play.addEventListener('click', () => (state.anim?.playing ? pause() : play()));
animUi.slider.addEventListener('input', () => { pause(); setFrame(Number(animUi.slider.value)); });

function showScene(gltf, name) {
  if (state.root) scene.remove(state.root);
  const root = gltf.scene;
  state.root = root;
  state.file = name;
  state.body = meshesUnder(root.getObjectByName('body'));
  const garmentNode = root.getObjectByName('garment');
  state.garment = garmentNode
    ? meshesUnder(garmentNode)
    : meshesUnder(root).filter((m) => !state.body.includes(m));
  state.garment.forEach(prepareGarment);
  // The body in drape's skin tone whatever the file says, as in render.png.
  const skin = new THREE.MeshStandardMaterial({ color: SKIN, roughness: 0.7, metalness: 0 });
  for (const m of state.body) m.material = skin;
  state.strainRange = strainRangeOf(state.garment);
  scene.add(root);
  frame(root);
  const pct = (v) => `${(v * 100).toFixed(1)}%`;
  if (state.strainRange) {
    document.getElementById('strain-min').textContent = pct(state.strainRange.rampMin);
    document.getElementById('strain-max').textContent = pct(state.strainRange.rampMax);
  }
  const count = (ms) => ms.reduce((n, m) => n + m.geometry.getAttribute('position').count, 0);
  setupAnimation(root, gltf.animations);
  setStatus(`${name}\nbody: ${count(state.body)} vertices\ngarment: ${count(state.garment)} vertices` +
    (state.strainRange ? `\nstrain ${pct(state.strainRange.min)} .. ${pct(state.strainRange.max)}` : '') +
    (state.anim ? `\n${state.anim.frames} frames` : ''));
  applyToggles();
}

const loader = new GLTFLoader();
let resolveReady, rejectReady;
function newReady() {
  const p = new Promise((res, rej) => { resolveReady = res; rejectReady = rej; });
  p.catch(() => {});  // failures are shown in #status; awaiting is optional
  return p;
}
let ready = newReady();

function fail(what, err) {
  const msg = `${what}: ${err?.message ?? err}`;
  setStatus(msg, true);
  rejectReady(new Error(msg));
}

function loadUrl(url, name) {
  setStatus(`loading ${name} ...`);
  loader.load(url, (gltf) => { showScene(gltf, name); resolveReady(state); },
    undefined, (err) => fail(`cannot load ${name}`, err));
}

function loadFile(file) {
  file.arrayBuffer().then((buf) => {
    loader.parse(buf, '', (gltf) => { showScene(gltf, file.name); resolveReady(state); },
      (err) => fail(`cannot read ${file.name}`, err));
  }, (err) => fail(`cannot read ${file.name}`, err));
}

// Drag and drop a .glb/.gltf anywhere on the page.
window.addEventListener('dragover', (e) => { e.preventDefault(); document.body.classList.add('dragging'); });
window.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
window.addEventListener('drop', (e) => {
  e.preventDefault();
  document.body.classList.remove('dragging');
  const file = e.dataTransfer?.files?.[0];
  if (!file) return;
  ready = newReady();
  window.drapeViewer.ready = ready;
  loadFile(file);
});

window.addEventListener('resize', () => {
  camera.aspect = container.clientWidth / container.clientHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(container.clientWidth, container.clientHeight);
  render();
});

// For tests and scripting: render now and read the canvas back (RGBA, bottom row first).
function readPixels() {
  render();
  const gl = renderer.getContext();
  const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
  const data = new Uint8Array(w * h * 4);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, data);
  return { width: w, height: h, data };
}

window.drapeViewer = { ready, state, toggles, render, readPixels, loadUrl, setFrame, play, pause };

const file = new URLSearchParams(window.location.search).get('file');
if (file) loadUrl(file, file.split('/').pop());
else render();
