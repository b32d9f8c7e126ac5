// One bounded download for chart fetching: runs in a child process with a wall-clock limit and stops
// at a size limit (a huge or endless answer ends with a reason, never a stalled job). Every hop
// (redirects followed by hand, at most 5) is refused when its host is, or resolves to, a private or
// internal address that the allow-list does not name. Request headers (an Authorization among them)
// reach the child on its standard input, never its command line, and are dropped on a redirect to
// another host, as Helm does unless told to pass credentials on.
import { spawnSync } from 'node:child_process';

export interface DownloadOptions {
  /** Bytes one download may hold. Default 20 MiB. */
  maxBytes?: number;
  /** Wall-clock time of one download. Default 20 s. */
  timeMs?: number;
  /**
   * Hosts (names or addresses, as URLs spell them) that may be, or resolve to, private or internal
   * addresses (`DRIFTBACK_FETCH_ALLOW_PRIVATE`). Default: none, every such address is refused.
   */
  allowPrivate?: readonly string[];
  /**
   * Hosts (`name` or `name:port`, as URLs spell them) reached at another `address:port`, keeping the
   * URL's host in the Host header and the TLS server name, as curl's `--connect-to`: a mirror that
   * answers for a public registry's name. The private-address guard applies to the address reached.
   */
  connectTo?: Readonly<Record<string, string>>;
}

/** Why a download gave no body: `status` set when the server answered; `challenge` its WWW-Authenticate. */
export interface DownloadFailure {
  reason: string;
  status?: number;
  challenge?: string;
}

/**
 * The child: reads `{url, max, ms, allow, connect, headers, form}` from stdin (a `form` is POSTed; a
 * redirect keeps it only to the same host, with 307/308, else the request becomes a GET), writes the
 * body to stdout (and the response's Link header, JSON, to stderr: a registry's next page), or exits
 * with a code and a reason on stderr (3: HTTP status, JSON `{status, challenge}`; 4: too large;
 * 5: network; 6: scheme; 7: private address). The private-address check runs in the lookup the
 * connection itself uses, so a name cannot resolve to a public address for the check and to a private
 * one for the connection.
 */
const DOWNLOAD = `
const [http, https, dns, net] = await Promise.all(['node:http', 'node:https', 'node:dns', 'node:net'].map((m) => import(m)));
let input = ''; for await (const chunk of process.stdin) input += chunk;
const { url, max, ms, allow, connect, headers, form } = JSON.parse(input);
const allowed = new Set(allow);
const blocked = new net.BlockList();
for (const [a, p] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 3]]) blocked.addSubnet(a, p, 'ipv4');
for (const [a, p] of [['::', 127], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]]) blocked.addSubnet(a, p, 'ipv6');
const fail = (code, text) => { process.stderr.write(text); process.exit(code); };
function isPrivate(address) {
  const mapped = /^::ffff:(\\d+\\.\\d+\\.\\d+\\.\\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  return blocked.check(address, net.isIP(address) === 6 ? 'ipv6' : 'ipv4');
}
const refuse = (host, address) => fail(7, host === address
  ? address + ' is a private or internal address (DRIFTBACK_FETCH_ALLOW_PRIVATE does not name it)'
  : host + ' resolves to ' + address + ', a private or internal address (DRIFTBACK_FETCH_ALLOW_PRIVATE does not name it)');
const origin = new URL(url).host;
function get(target, hops, body) {
  const u = new URL(target);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') fail(6, target + ': only http and https are fetched');
  const host = u.hostname.replace(/^\\[|\\]$/g, '');
  const to = [u.host, u.hostname].filter((k) => Object.hasOwn(connect, k)).map((k) => connect[k])[0];
  const via = to ? new URL('http://' + to) : undefined;
  const address = via ? via.hostname.replace(/^\\[|\\]$/g, '') : host;
  const open = allowed.has(host) || allowed.has(address);
  if (!open && net.isIP(address) && isPrivate(address)) refuse(host, address);
  const lookup = (name, options, callback) => dns.lookup(name, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error);
    const bad = open ? undefined : addresses.find((a) => isPrivate(a.address));
    if (bad) return refuse(host, bad.address);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
  const sent = { ...headers };
  if (u.host !== origin) for (const name of Object.keys(sent)) if (name.toLowerCase() === 'authorization') delete sent[name];
  if (body !== undefined) Object.assign(sent, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) });
  const options = { lookup, headers: sent, method: body === undefined ? 'GET' : 'POST' };
  if (via) Object.assign(options, { hostname: address, port: via.port || (u.protocol === 'https:' ? 443 : 80), servername: host, headers: { host: u.host, ...sent } });
  const request = (u.protocol === 'https:' ? https : http).request(u, options, (res) => {
    if ([301, 302, 303, 307, 308].includes(res.statusCode) && res.headers.location) {
      res.resume();
      if (hops >= 5) fail(5, 'more than 5 redirects');
      const next = new URL(res.headers.location, u);
      const keep = body !== undefined && [307, 308].includes(res.statusCode) && next.host === origin;
      return get(next.href, hops + 1, keep ? body : undefined);
    }
    if (res.statusCode < 200 || res.statusCode > 299) {
      res.resume();
      fail(3, JSON.stringify({ status: res.statusCode, challenge: res.headers['www-authenticate'] ?? '' }));
    }
    if (Number(res.headers['content-length'] ?? 0) > max) fail(4, 'too large');
    const chunks = []; let total = 0;
    res.on('data', (chunk) => { total += chunk.length; if (total > max) fail(4, 'too large'); chunks.push(chunk); });
    res.on('end', () => { process.stderr.write(JSON.stringify({ link: res.headers.link ?? '' })); process.stdout.write(Buffer.concat(chunks)); });
    res.on('error', (error) => fail(5, String(error.message || error)));
  });
  request.on('error', (error) => fail(5, String(error.message || error)));
  request.end(body);
}
setTimeout(() => fail(5, 'timed out'), ms).unref();
get(url, 0, form ?? undefined);
`;

/** What an HTTP status the server answered says, for a reason. */
function statusFailure(url: string, stderr: string): DownloadFailure {
  let answer: { status?: number; challenge?: string } = {};
  try {
    answer = JSON.parse(stderr) as typeof answer;
  } catch {
    return { reason: `${url}: ${stderr || 'download failed'}` };
  }
  return {
    reason: `${url}: HTTP ${answer.status}`,
    ...(answer.status ? { status: answer.status } : {}),
    ...(answer.challenge ? { challenge: answer.challenge } : {}),
  };
}

/**
 * Downloads `url` in a child process; its body, or why not. `answer.link`: the response's Link header.
 * With `form` (URL-encoded), the request is a POST of it (a token exchange).
 */
export function download(
  url: string,
  options: DownloadOptions,
  headers: Readonly<Record<string, string>> = {},
  answer: { link?: string } = {},
  form?: string,
): Buffer | DownloadFailure {
  if (!/^https?:\/\//.test(url)) return { reason: `${url}: only http and https repositories are fetched` };
  const maxBytes = options.maxBytes ?? 20 * 1024 * 1024;
  const timeMs = options.timeMs ?? 20_000;
  const allow = options.allowPrivate ?? [];
  const input = JSON.stringify({
    url,
    max: maxBytes,
    ms: timeMs,
    allow,
    connect: options.connectTo ?? {},
    headers,
    form,
  });
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', DOWNLOAD], {
    input,
    timeout: timeMs + 2_000,
    killSignal: 'SIGKILL',
    maxBuffer: maxBytes + 1024,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const mib = Math.round(maxBytes / 1024 / 1024);
  if (run.status === 4 || (run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOBUFS')
    return { reason: `${url} is larger than ${mib} MiB, the limit of one download` };
  if (run.signal || run.status === null) return { reason: `${url} took more than ${Math.round(timeMs / 1000)} s` };
  if (run.status === 3) return statusFailure(url, run.stderr.toString().trim());
  if (run.status !== 0) return { reason: `${url}: ${run.stderr.toString().trim() || 'download failed'}` };
  try {
    answer.link = String((JSON.parse(run.stderr.toString()) as { link?: unknown }).link ?? '');
  } catch {
    answer.link = '';
  }
  return run.stdout;
}
