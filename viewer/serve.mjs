// A small static server for the viewer and its browser test (no packages):
//   node serve.mjs [--port P] [--results DIR]
// serves this folder at / and DIR (when given) at /results/, on 127.0.0.1
// only, GET/HEAD only, never outside those folders. Prints
// "listening http://127.0.0.1:PORT/" once ready (port 0 = a free port).

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.json': 'application/json', '.css': 'text/css',
  '.glb': 'model/gltf-binary', '.gltf': 'model/gltf+json', '.png': 'image/png',
  '.obj': 'text/plain; charset=utf-8', '.bin': 'application/octet-stream', '.wasm': 'application/wasm',
};

export function startServer({ root, results = null, port = 0 }) {
  const roots = [['/results/', results], ['/', root]].filter(([, dir]) => dir);
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405); res.end(); return; }
    let urlPath;
    try { urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname); } catch { res.writeHead(400); res.end(); return; }
    if (urlPath.endsWith('/')) urlPath += 'index.html';
    for (const [prefix, dir] of roots) {
      if (!urlPath.startsWith(prefix)) continue;
      const base = path.resolve(dir);
      const file = path.resolve(base, '.' + path.posix.normalize('/' + urlPath.slice(prefix.length)));
      if (file !== base && !file.startsWith(base + path.sep)) { res.writeHead(403); res.end(); return; }
      fs.stat(file, (err, st) => {
        if (err || !st.isFile()) { res.writeHead(404); res.end('not found'); return; }
        res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
                             'Content-Length': st.size, 'Cache-Control': 'no-store' });
        if (req.method === 'HEAD') res.end(); else fs.createReadStream(file).pipe(res);
      });
      return;
    }
    res.writeHead(404); res.end();
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : null; };
  const server = await startServer({
    root: path.dirname(fileURLToPath(import.meta.url)),
    results: opt('--results'),
    port: Number(opt('--port') ?? 0),
  });
  console.log(`listening http://127.0.0.1:${server.address().port}/`);
}
