// Validates glTF 2.0 files with the Khronos glTF-Validator (npm gltf-validator).
//   node validate_gltf.mjs FILE...
// Prints one line per file (errors, warnings, and the first few messages);
// exits 1 when any file has an error. Also importable: validateFile(path).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import validator from 'gltf-validator';

export async function validateFile(file) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    externalResourceFunction: (uri) =>
      Promise.resolve(new Uint8Array(fs.readFileSync(path.resolve(path.dirname(file), decodeURIComponent(uri))))),
  });
  return report;
}

export function summary(report) {
  const i = report.issues;
  const first = i.messages.filter((m) => m.severity === 0).slice(0, 5)
    .map((m) => `${m.code} at ${m.pointer ?? '?'}: ${m.message}`);
  return { errors: i.numErrors, warnings: i.numWarnings, first };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2);
  if (!files.length) { console.error('usage: node validate_gltf.mjs FILE...'); process.exit(2); }
  let bad = 0;
  for (const f of files) {
    try {
      const s = summary(await validateFile(f));
      console.log(`${f}: ${s.errors} errors, ${s.warnings} warnings${s.first.length ? '\n  ' + s.first.join('\n  ') : ''}`);
      if (s.errors) bad++;
    } catch (e) {
      console.log(`${f}: cannot validate: ${e.message ?? e}`);
      bad++;
    }
  }
  process.exit(bad ? 1 : 0);
}
