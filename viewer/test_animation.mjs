// Browser test of the viewer playing an animation.glb (`drape animate`):
// Debian's chromium headless with SwiftShader, driven by playwright-core.
//   node test_animation.mjs BASE_URL GLB_PATH GLB_FILE FRAMES
// Asserts on pixels read back from the canvas that two different frames draw
// different pictures (and the same frame the same one), that the slider,
// play/pause and the frame number work, and that the strain toggle still
// recolours the garment. Prints "viewer animation: N passed, M failed" last.

import { check, expect, finish, launchBrowser, openPage } from './browser_harness.mjs';
import { summary, validateFile } from './validate_gltf.mjs';

const [base, glbPath, glbFile, framesArg] = process.argv.slice(2);
if (!base || !glbPath || !glbFile || !framesArg) {
  console.error('usage: node test_animation.mjs BASE_URL GLB_PATH GLB_FILE FRAMES');
  process.exit(2);
}
const frames = Number(framesArg);

// In the page: the canvas now, and counts of purple (plain garment) and
// saturated non-purple (strain ramp) pixels.
function snapshot() {
  const { width, height, data } = window.drapeViewer.readPixels();
  let purple = 0, ramp = 0;
  for (let i = 0; i < width * height; i++) {
    const r = data[4 * i], g = data[4 * i + 1], b = data[4 * i + 2];
    const isPurple = r > g + 20 && b > g + 40;
    if (isPurple) purple++;
    else if (Math.max(r, g, b) - Math.min(r, g, b) > 40) ramp++;
  }
  return { width, height, pixels: Array.from(data), purple, ramp };
}

// Pixels whose colour differs by more than 24 in some channel.
function differing(a, b) {
  let n = 0;
  for (let i = 0; i < a.pixels.length; i += 4)
    if (Math.abs(a.pixels[i] - b.pixels[i]) > 24 || Math.abs(a.pixels[i + 1] - b.pixels[i + 1]) > 24 ||
        Math.abs(a.pixels[i + 2] - b.pixels[i + 2]) > 24) n++;
  return n;
}


await check('animation.glb passes the glTF validator', async () => {
  const v = summary(await validateFile(glbFile));
  expect(v.errors === 0, `${v.errors} errors: ${v.first.join('; ')}`);
});

const { browser, dispose } = await launchBrowser();
try {
  const { page, errors } = await openPage(browser);
  await page.goto(new URL(`index.html?file=${encodeURIComponent(glbPath)}`, base).href);

  await check('loads the animation with its frames and controls', async () => {
    await page.waitForFunction(() => window.drapeViewer, null, { timeout: 30000 });
    await page.evaluate(() => window.drapeViewer.ready);
    const n = await page.evaluate(() => window.drapeViewer.state.anim?.frames);
    expect(n === frames, `expected ${frames} frames, got ${n}`);
    for (const id of ['#anim-play', '#anim-slider', '#anim-frame'])
      expect(await page.isVisible(id), `${id} hidden`);
    const label = await page.textContent('#anim-frame');
    expect(label === `frame 1 / ${frames}`, `frame number reads '${label}'`);
  });

  await check('two different frames draw different pixels, the same frame the same ones', async () => {
    await page.evaluate(() => window.drapeViewer.setFrame(0));
    const a = await page.evaluate(snapshot);
    await page.evaluate((k) => window.drapeViewer.setFrame(k), frames - 1);
    const b = await page.evaluate(snapshot);
    await page.evaluate(() => window.drapeViewer.setFrame(0));
    const again = await page.evaluate(snapshot);
    expect(a.purple > 0.005 * a.width * a.height, `garment pixels at frame 1: ${a.purple}`);
    const d = differing(a, b);
    expect(d > 0.002 * a.width * a.height, `frames 1 and ${frames} differ in ${d} pixels only`);
    expect(differing(a, again) === 0, 'frame 1 drawn twice differs');
  });

  await check('the slider sets the frame and its number', async () => {
    const k = Math.min(2, frames - 1);
    await page.$eval('#anim-slider', (el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, k);
    const f = await page.evaluate(() => window.drapeViewer.state.anim.frame);
    expect(f === k, `frame ${f} after the slider moved to ${k}`);
    const label = await page.textContent('#anim-frame');
    expect(label === `frame ${k + 1} / ${frames}`, `frame number reads '${label}'`);
  });

  await check('play advances the frames, pause stops them', async () => {
    const start = await page.evaluate(() => window.drapeViewer.state.anim.frame);
    await page.click('#anim-play');
    expect((await page.textContent('#anim-play')) === 'pause', 'button does not offer pause while playing');
    await page.waitForFunction((s) => window.drapeViewer.state.anim.frame !== s, start, { timeout: 15000 });
    await page.click('#anim-play');
    expect((await page.textContent('#anim-play')) === 'play', 'button does not offer play when paused');
    const held = await page.evaluate(() => window.drapeViewer.state.anim.frame);
    await page.waitForTimeout(500);
    const later = await page.evaluate(() => window.drapeViewer.state.anim.frame);
    expect(later === held, `frame moved from ${held} to ${later} while paused`);
  });

  await check('the strain toggle recolours the animated garment', async () => {
    await page.evaluate(() => window.drapeViewer.setFrame(1));
    const plain = await page.evaluate(snapshot);
    await page.click('#toggle-strain');
    const strain = await page.evaluate(snapshot);
    expect(strain.purple < 0.1 * plain.purple, `${strain.purple} plain garment pixels remain of ${plain.purple}`);
    expect(strain.ramp > 0.5 * plain.purple, `only ${strain.ramp} ramp pixels`);
    expect(await page.isVisible('#legend'), 'legend hidden');
    await page.click('#toggle-strain');
  });

  await check('no errors in the page', async () => {
    expect(errors.length === 0, errors.join('; '));
  });
} finally {
  await dispose();
}

finish('viewer animation');
