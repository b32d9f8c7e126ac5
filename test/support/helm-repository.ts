// A Helm repository served over HTTP from another process (the renderer blocks this one while it
// downloads): `dir` as it is, with `/private/` behind basic auth (ci-bot), `/metadata/index.yaml` a
// redirect to a cloud metadata address, and `/huge/index.yaml` 64 MiB of bytes.
import { spawn, type ChildProcess } from 'node:child_process';

const SERVE = `
const http = require('node:http'); const fs = require('node:fs'); const path = require('node:path');
const dir = process.argv[1];
const server = http.createServer((req, res) => {
  if (req.url.startsWith('/private/') && req.headers.authorization !== 'Basic ' + Buffer.from('ci-bot:n0t-a-real-secret').toString('base64')) {
    res.writeHead(401, { 'www-authenticate': 'Basic realm="charts"' }); return res.end(); }
  if (req.url === '/metadata/index.yaml') { res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }); return res.end(); }
  if (req.url === '/huge/index.yaml') { res.writeHead(200); const chunk = Buffer.alloc(1 << 20, 97); let n = 0;
    const more = () => { while (n++ < 64) { if (!res.write(chunk)) return res.once('drain', more); } res.end(); }; return more(); }
  const file = path.join(dir, path.normalize(req.url).replace(/^\\/+/, ''));
  if (!file.startsWith(dir) || !fs.existsSync(file)) { res.writeHead(404); return res.end(); }
  res.writeHead(200); res.end(fs.readFileSync(file));
});
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

/** Serves `dir` on the loopback address; `url` is the repository's root. */
export async function serveHelmRepository(dir: string): Promise<{ server: ChildProcess; url: string }> {
  const server = spawn(process.execPath, ['-e', SERVE, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => server.stdout!.once('data', (d) => resolve(String(d).trim())));
  return { server, url: `http://127.0.0.1:${port}` };
}
