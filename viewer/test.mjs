// Browser test of the viewer: Debian's chromium, headless with software WebGL
// (SwiftShader), driven by playwright-core. Asserts on the pixels read back
// from the canvas that the garment is drawn and that the toggles work.
//   node test.mjs BASE_URL SCENE_PATH [SCENE_FILE]
//   (e.g. http://127.0.0.1:8123/ results/scene.glb /tmp/x/scene.glb; with
//   SCENE_FILE the file is also run through the Khronos glTF validator)
// Prints "viewer: N passed, M failed" last; exits 1 on any failure.

import { check, expect, finish, launchBrowser, openPage } from './browser_harness.mjs';
import { summary, validateFile } from './validate_gltf.mjs';

const [base, scenePath, sceneFile] = process.argv.slice(2);
if (!base || !scenePath) {
  console.error('usage: node test.mjs BASE_URL SCENE_PATH');
  process.exit(2);
}

// Pixel classes, computed in the page from the RGBA read-back. The plain
// garment is purple, which the strain ramp (blue..red) never produces.
function classify() {
  const { width, height, data } = window.drapeViewer.readPixels();
  const purple = [], counts = { purple: 0, skin: 0, ramp: 0, total: width * height };
  for (let i = 0; i < width * height; i++) {
    const r = data[4 * i], g = data[4 * i + 1], b = data[4 * i + 2];
    const isPurple = r > g + 20 && b > g + 40;
    const isSkin = r > g + 15 && g > b + 5 && r > 120 && !isPurple;
    const saturated = Math.max(r, g, b) - Math.min(r, g, b) > 40;
    if (isPurple) { counts.purple++; purple.push(i); }
    if (isSkin) counts.skin++;
    if (saturated && !isPurple) counts.ramp++;
  }
  return { counts, purple };
}

// Fraction of the given pixel indices that are saturated and not purple now.
function rampFractionAt(indices) {
  const { data } = window.drapeViewer.readPixels();
  let n = 0;
  for (const i of indices) {
    const r = data[4 * i], g = data[4 * i + 1], b = data[4 * i + 2];
    const isPurple = r > g + 20 && b > g + 40;
    if (!isPurple && Math.max(r, g, b) - Math.min(r, g, b) > 40) n++;
  }
  return indices.length ? n / indices.length : 0;
}


if (sceneFile) {
  await check('scene.glb passes the glTF validator', async () => {
    const v = summary(await validateFile(sceneFile));
    expect(v.errors === 0, `${v.errors} errors: ${v.first.join('; ')}`);
  });
}

const { browser, dispose } = await launchBrowser();
try {
  const { page, errors } = await openPage(browser);

  const sceneUrl = new URL(scenePath, base).href;
  await page.goto(new URL(`index.html?file=${encodeURIComponent(scenePath)}`, base).href);
  await check('loads the scene from ?file', async () => {
    await page.waitForFunction(() => window.drapeViewer, null, { timeout: 30000 });
    await page.evaluate(() => window.drapeViewer.ready);
    const s = await page.evaluate(() => ({ body: window.drapeViewer.state.body.length,
                                           garment: window.drapeViewer.state.garment.length }));
    expect(s.body >= 1 && s.garment >= 1, `expected body and garment meshes, got ${JSON.stringify(s)}`);
  });

  let plain;
  await check('draws the garment and the body', async () => {
    plain = await page.evaluate(classify);
    const c = plain.counts;
    expect(c.purple > 0.005 * c.total, `garment pixels ${c.purple} of ${c.total}`);
    expect(c.skin > 0.005 * c.total, `body pixels ${c.skin} of ${c.total}`);
  });

  await check('garment toggle removes the garment pixels', async () => {
    await page.click('#toggle-garment');
    const c = (await page.evaluate(classify)).counts;
    expect(c.purple < 0.02 * plain.counts.purple, `${c.purple} garment pixels left of ${plain.counts.purple}`);
    expect(c.skin > plain.counts.skin, `body under the garment not revealed (${c.skin} <= ${plain.counts.skin})`);
    await page.click('#toggle-garment');
    const back = (await page.evaluate(classify)).counts;
    expect(Math.abs(back.purple - plain.counts.purple) <= 0.02 * plain.counts.purple, 'garment did not come back');
  });

  await check('strain map recolours the garment', async () => {
    await page.click('#toggle-strain');
    const c = (await page.evaluate(classify)).counts;
    expect(c.purple < 0.1 * plain.counts.purple, `${c.purple} plain garment pixels remain`);
    const f = await page.evaluate(rampFractionAt, plain.purple);
    expect(f > 0.8, `only ${(f * 100).toFixed(1)} % of the garment shows ramp colours`);
    expect(await page.isVisible('#legend'), 'legend hidden');
    await page.click('#toggle-strain');
  });

  await check('body toggle removes the body pixels', async () => {
    await page.click('#toggle-body');
    const c = (await page.evaluate(classify)).counts;
    expect(c.skin < 0.02 * plain.counts.skin, `${c.skin} body pixels left of ${plain.counts.skin}`);
    expect(c.purple > 0.5 * plain.counts.purple, 'garment vanished with the body');
    await page.click('#toggle-body');
  });

  await check('drag and drop opens a file', async () => {
    const p2 = await browser.newPage();
    p2.on('pageerror', (e) => errors.push(e.message));
    await p2.goto(new URL('index.html', base).href);
    await p2.waitForFunction(() => window.drapeViewer, null, { timeout: 30000 });
    await p2.evaluate(async (url) => {
      const blob = await (await fetch(url)).blob();
      const dt = new DataTransfer();
      dt.items.add(new File([blob], 'dropped.glb', { type: 'model/gltf-binary' }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      await window.drapeViewer.ready;
    }, sceneUrl);
    const c = (await p2.evaluate(classify)).counts;
    expect(c.purple > 0.005 * c.total, `garment pixels after drop: ${c.purple}`);
    expect((await p2.textContent('#status')).includes('dropped.glb'), 'status does not name the file');
    await p2.close();
  });

  await check('a missing file is reported on the page', async () => {
    const p3 = await browser.newPage();
    await p3.goto(new URL('index.html?file=results/no-such-file.glb', base).href);
    await p3.waitForFunction(() => document.getElementById('status').classList.contains('error'), null,
                             { timeout: 30000 });
    await p3.close();
  });

  await check('no errors in the page', async () => {
    expect(errors.length === 0, errors.join('; '));
  });
} finally {
  await dispose();
}

finish('viewer');
