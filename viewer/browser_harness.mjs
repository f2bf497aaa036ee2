// What the viewer's browser tests share: Debian's chromium found on PATH,
// launched headless with software WebGL (SwiftShader) on a fresh temporary
// profile, and named checks that are counted and summed up at the end.

import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export function findChromium() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const name of ['chromium', 'chromium-browser']) {
    try { return execSync(`command -v ${name}`, { shell: '/bin/sh' }).toString().trim(); } catch { /* next */ }
  }
  throw new Error('chromium not found (apt-get install chromium, or set CHROMIUM=/path)');
}

// A persistent context on a fresh, temporary profile (playwright passes it as
// --user-data-dir). Returns { browser, dispose }: dispose() closes it and
// removes the profile.
export async function launchBrowser() {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drape-chromium-'));
  const browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: findChromium(),
    headless: true,
    viewport: { width: 800, height: 600 },
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-gpu',
           '--disable-background-networking', '--disable-component-update', '--disable-sync',
           '--no-first-run'],
  });
  const dispose = async () => {
    await browser.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  return { browser, dispose };
}

// The context's page, with every page error and console error collected in
// `errors` (each test asserts it stays empty). Returns { page, errors }.
export async function openPage(browser) {
  const page = browser.pages()[0] ?? await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return { page, errors };
}

export function expect(cond, what) { if (!cond) throw new Error(what); }

const results = [];

// Runs one named check: "ok NAME" or "FAIL NAME: why"; never throws.
export async function check(name, fn) {
  try {
    await fn();
    results.push([name, true]);
    console.log(`ok   ${name}`);
  } catch (e) {
    results.push([name, false]);
    console.log(`FAIL ${name}: ${e.message}`);
  }
}

// Prints "LABEL: N passed, M failed" and exits 1 on any failure.
export function finish(label) {
  const failed = results.filter(([, ok]) => !ok).length;
  console.log(`${label}: ${results.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
