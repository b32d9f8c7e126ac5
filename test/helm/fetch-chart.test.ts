// Repository charts fetched over HTTP from a real Helm repository: the pinned Helm packages a chart
// and indexes it (`helm package`, `helm repo index`), a separate process serves the directory, and
// driftback's renderer downloads the index and the archive (bounded, digest-checked, cached).
import { execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChartRequest } from '../../src/core/charts/index.js';
import { loadChartCredentials } from '../../src/helm/credentials.js';
import { fetchChart, type ChartFetchOptions } from '../../src/helm/fetch.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import { packagedChart } from '../support/charts.js';
import { serveHelmRepository } from '../support/helm-repository.js';
import { pinnedHelm } from '../support/tools.js';

const found = locateHelm({ HELM_BINARY: pinnedHelm(), PATH: '' });
if (!found.found) throw new Error(found.reason);

/** The test's repository is served on the loopback address: named, as DRIFTBACK_FETCH_ALLOW_PRIVATE would. */
const LOCAL = ['127.0.0.1'];

let server: ChildProcess;
let repo = '';
const dir = packagedChart('charts/webapp');

beforeAll(async () => {
  const env = { HOME: mkdtempSync(join(tmpdir(), 'helm-home-')), PATH: '/usr/bin:/bin' };
  mkdirSync(join(dir, 'private'));
  copyFileSync(join(dir, 'webapp-1.4.0.tgz'), join(dir, 'private', 'webapp-1.4.0.tgz'));
  execFileSync(pinnedHelm(), ['repo', 'index', join(dir, 'private')], { env });
  execFileSync(pinnedHelm(), ['repo', 'index', dir], { env });
  ({ server, url: repo } = await serveHelmRepository(dir));
});
afterAll(() => {
  server.kill();
});

const request = (version: string, url = repo): ChartRequest => ({
  where: 'webapp',
  chart: { type: 'repository', url, name: 'webapp', version },
  releaseName: 'webapp',
  namespace: 'shop',
  valueFiles: [],
  set: [],
  apiVersions: [],
  kubeVersion: 'v1.32.3',
  includeCrds: true,
});

describe('a chart fetched from a Helm repository over HTTP', () => {
  it('is downloaded once by its index entry, digest-checked, cached and rendered', () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'chart-cache-'));
    const render = createChartRenderer({ helm: found.helm, fetch: { cacheDir, allowPrivate: LOCAL } });
    const output = render(request('1.x'));
    expect(output.ok && output.manifest).toContain('helm.sh/chart: webapp-1.4.0');
    const cached = readdirSync(cacheDir).flatMap((sub) => readdirSync(join(cacheDir, sub)));
    expect(cached).toEqual(['webapp-1.4.0.tgz']);
    // Served from the cache: no download, even with the repository gone.
    const again = fetchChart('http://127.0.0.1:9/gone', 'webapp', '1.4.0', { cacheDir, allowPrivate: LOCAL });
    expect('reason' in again).toBe(true);
    expect(fetchChart(repo, 'webapp', '1.4.0', { cacheDir, allowPrivate: LOCAL })).toMatchObject({
      path: expect.stringContaining(cacheDir),
    });
  });

  it('says which version the index lacks, and refuses an archive whose digest differs', () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'chart-cache-'));
    expect(fetchChart(repo, 'webapp', '2.x', { cacheDir, allowPrivate: LOCAL })).toEqual({
      reason: `${repo}/index.yaml lists no webapp 2.x`,
    });
    const render = createChartRenderer({ helm: found.helm, fetch: { cacheDir, allowPrivate: LOCAL } });
    const pinned = request('1.4.0');
    (pinned.chart as { digest?: string }).digest = 'sha256:' + '0'.repeat(64);
    const output = render(pinned);
    expect(output.ok).toBe(false);
    expect(!output.ok && output.reason).toMatch(/has digest sha256:[0-9a-f]{64}, the source pins sha256:0{64}$/);
  });

  it('stops a download past its size limit, and an unreachable repository, with a reason', () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'chart-cache-'));
    expect(
      fetchChart(`${repo}/huge`, 'webapp', '1.4.0', { cacheDir, maxBytes: 4 * 1024 * 1024, allowPrivate: LOCAL }),
    ).toEqual({
      reason: `chart webapp 1.4.0: ${repo}/huge/index.yaml is larger than 4 MiB, the limit of one download`,
    });
    const closed = fetchChart('http://127.0.0.1:9', 'webapp', '1.4.0', {
      cacheDir,
      timeMs: 3_000,
      allowPrivate: LOCAL,
    });
    expect('reason' in closed && closed.reason).toMatch(
      /^chart webapp 1\.4\.0: http:\/\/127\.0\.0\.1:9\/index\.yaml: /,
    );
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it('refuses private and internal addresses the allow-list does not name: by address, by name, on a redirect', () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'chart-cache-'));
    expect(fetchChart(repo, 'webapp', '1.4.0', { cacheDir })).toEqual({
      reason: `chart webapp 1.4.0: ${repo}/index.yaml: 127.0.0.1 is a private or internal address (DRIFTBACK_FETCH_ALLOW_PRIVATE does not name it)`,
    });
    const byName = repo.replace('127.0.0.1', 'localhost');
    const named = fetchChart(byName, 'webapp', '1.4.0', { cacheDir, allowPrivate: LOCAL });
    expect('reason' in named && named.reason).toMatch(
      /: localhost resolves to (127\.0\.0\.1|::1), a private or internal address \(DRIFTBACK_FETCH_ALLOW_PRIVATE does not name it\)$/,
    );
    // The repository is allowed; where it redirects to (the cloud metadata address) is not.
    expect(fetchChart(`${repo}/metadata`, 'webapp', '1.4.0', { cacheDir, allowPrivate: LOCAL })).toEqual({
      reason: `chart webapp 1.4.0: ${repo}/metadata/index.yaml: 169.254.169.254 is a private or internal address (DRIFTBACK_FETCH_ALLOW_PRIVATE does not name it)`,
    });
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it('of a private repository: rendered with the configured credentials, else says which host needs them', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'credentials-')), 'chart-credentials.yaml');
    writeFileSync(file, `- url: ${repo}/private\n  username: ci-bot\n  password: n0t-a-real-secret\n`);
    const credentials = loadChartCredentials(file);
    const fetch = (extra: Partial<ChartFetchOptions>) => ({
      cacheDir: mkdtempSync(join(tmpdir(), 'chart-cache-')),
      allowPrivate: LOCAL,
      ...extra,
    });
    const render = createChartRenderer({ helm: found.helm, fetch: fetch({ credentials }) });
    const output = render(request('1.4.0', `${repo}/private`));
    expect(output.ok && output.manifest).toContain('helm.sh/chart: webapp-1.4.0');
    const without = createChartRenderer({ helm: found.helm, fetch: fetch({}) })(request('1.4.0', `${repo}/private`));
    expect(without).toEqual({
      ok: false,
      reason: `chart webapp 1.4.0: authentication required (configure credentials for ${repo.slice('http://'.length)})`,
    });
    // Credentials for another prefix of the same host are not this repository's.
    writeFileSync(file, `- url: ${repo}/other\n  username: ci-bot\n  password: n0t-a-real-secret\n`);
    const other = fetchChart(`${repo}/private`, 'webapp', '1.4.0', fetch({ credentials: loadChartCredentials(file) }));
    expect('reason' in other && other.reason).toMatch(/authentication required/);
    writeFileSync(file, `- url: ${repo}/private\n  username: ci-bot\n  password: wrong\n`);
    const wrong = fetchChart(`${repo}/private`, 'webapp', '1.4.0', fetch({ credentials: loadChartCredentials(file) }));
    expect(wrong).toEqual({
      reason: `chart webapp 1.4.0: ${repo.slice('http://'.length)} refused the configured credentials (HTTP 401)`,
    });
  });

  it('is not fetched without the option: the offline reason stands', () => {
    const render = createChartRenderer({ helm: found.helm });
    const output = render(request('1.4.0'));
    expect(!output.ok && output.reason).toMatch(/is not available offline/);
  });
});
