// A Flux HelmRelease whose chart is kept in the repository with its subchart packaged
// (charts/cache-0.3.0.tgz, as `helm dependency build` leaves it) and an image its templates embed
// (`.Files.Get "files/logo.png" | b64enc`): the App lists such files without fetching them, yet the
// chart renders from every one of its files' real bytes. The reconcile's drift pull request and a pull
// request's plan, made by the real App from the GitHub stand-in, are what `driftback codify` and
// `driftback plan` make of the same files on disk.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fileText, type KubeObject } from '../../src/core/model/index.js';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { liveAfterHandEdit } from '../core/codify/support.js';
import { chartFiles, packagedChart } from '../support/charts.js';
import { fixturePath } from '../support/fixtures.js';
import { snapshotOf } from './live.js';
import {
  cliCodify,
  commentsOn,
  drain,
  expectCliPlanOfChange,
  openPullRequest,
  pullRequestPayload,
  REPOSITORY,
  sendWebhook,
  startHarness,
  uploadSnapshot,
  type Harness,
} from './plan-harness.js';
import { webappRelease } from './webapp-release.js';
import { pinnedChartRenderer } from '../support/tools.js';

const charts = pinnedChartRenderer();

const CLUSTER = 'prod';
const LOGO = new Uint8Array(
  readFileSync(fixturePath('..', 'kustomize-oracle', 'binary-generator-sources', 'input', 'base', 'logo.gif')),
);
const RELEASE = webappRelease(['  values:', '    replicaCount: 2']);
const LOGO_TEMPLATE = [
  'apiVersion: v1',
  'kind: ConfigMap',
  'metadata:',
  '  name: {{ .Release.Name }}-logo',
  'binaryData:',
  '  logo.png: {{ .Files.Get "files/logo.png" | b64enc }}',
  '',
].join('\n');
const CONFIG =
  'clusters:\n  - name: prod\n    path: clusters/prod\n    controller: flux\n    namespaces: [shop]\ndrift:\n  minSnapshots: 1\n';

/** The repository: charts/webapp with its cache subchart packaged, an image its template embeds, the release. */
function repository(): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = Object.fromEntries(
    [...chartFiles('charts/webapp', 'charts/webapp')].filter(([path]) => !path.includes('/charts/cache/')),
  );
  const packaged = packagedChart('charts/webapp/charts/cache');
  files['charts/webapp/charts/cache-0.3.0.tgz'] = new Uint8Array(readFileSync(join(packaged, 'cache-0.3.0.tgz')));
  rmSync(packaged, { recursive: true, force: true });
  files['charts/webapp/files/logo.png'] = LOGO;
  files['charts/webapp/templates/logo.yaml'] = LOGO_TEMPLATE;
  files['.github/driftback.yml'] = CONFIG;
  files['clusters/prod/webapp.yaml'] = RELEASE;
  return files;
}
const FILES = repository();
/** The files as driftback holds them (bytes that are not UTF-8, marked). */
const asText = (files: Record<string, string | Uint8Array>) =>
  new Map(
    Object.entries(files).map(([path, content]) => [path, typeof content === 'string' ? content : fileText(content)]),
  );

/** What HEAD renders (the objects helm-controller applied), then a person sets both objects replicaCount reaches to 5. */
function liveObjects(): KubeObject[] {
  const server = { gitVersion: 'v1.32.3', resources: [] };
  const target = { name: CLUSTER, path: 'clusters/prod', defaultNamespace: 'default', controller: 'flux' as const };
  const applied = renderCluster(asText(FILES), target, { live: { items: [], server }, charts });
  expect(applied.errors).toEqual([]);
  expect(applied.notRendered ?? []).toEqual([]);
  return applied.objects.map(({ key, object }) =>
    key.kind === 'Deployment' && key.name === 'webapp'
      ? liveAfterHandEdit(object, [{ segments: ['spec', 'replicas'], value: 5 }], 'kubectl-edit')
      : key.kind === 'Widget'
        ? liveAfterHandEdit(object, [{ segments: ['spec', 'size'], value: 5 }], 'kubectl-edit')
        : object,
  );
}

const NOW = new Date();
const CAPTURED = new Date(NOW.getTime() - 5 * 60_000).toISOString();
const work = mkdtempSync(join(tmpdir(), 'driftback-chart-binary-'));
let h: Harness;
let live: KubeObject[];

beforeAll(async () => {
  live = liveObjects();
  h = await startHarness(FILES, NOW.toISOString());
  expect(await uploadSnapshot(h, CLUSTER, live, CAPTURED)).toBe(202);
  await drain(h);
  writeFileSync(join(work, 'live.json'), JSON.stringify(snapshotOf(REPOSITORY, live, CAPTURED, CLUSTER)));
}, 120_000);
afterAll(async () => {
  await h?.close();
  rmSync(work, { recursive: true, force: true });
});

it('the cluster runs the packaged subchart and a ConfigMap holding the bytes of files/logo.png', () => {
  expect(live.some((obj) => obj.kind === 'StatefulSet' && obj.metadata.name === 'webapp-cache')).toBe(true);
  const logo = live.find((obj) => obj.kind === 'ConfigMap' && obj.metadata.name === 'webapp-logo');
  expect(logo?.binaryData).toEqual({ 'logo.png': Buffer.from(LOGO).toString('base64') });
});

it('the drift pull request is what driftback codify writes', async () => {
  const branch = h.standIn.readFiles('acme', 'platform', `driftback/${CLUSTER}`);
  const cli = await cliCodify(work, FILES, { cluster: CLUSTER, live: join(work, 'live.json') });
  expect(cli.stderr).toBe('');
  expect(cli.code).toBe(0);
  expect(branch.get('clusters/prod/webapp.yaml')).toBe(RELEASE.replace('replicaCount: 2', 'replicaCount: 5'));
  expect(cli.text('clusters/prod/webapp.yaml')).toBe(branch.get('clusters/prod/webapp.yaml'));
}, 120_000);

it('the plan of a pull request that changes the image is the one driftback plan prints', async () => {
  const logo = Uint8Array.from(LOGO);
  logo[logo.length - 2] = 0x01;
  const changed = { 'charts/webapp/files/logo.png': logo };
  const pull = openPullRequest(h, 'new-logo', changed);
  expect(await sendWebhook(h, 'pull_request', pullRequestPayload('opened', { ...pull, branch: 'new-logo' }))).toBe(200);
  const [posted] = commentsOn(h, pull.number);
  expect(posted).toContain('update <code>ConfigMap/shop/webapp-logo</code>');
  expect(posted).not.toContain('not rendered');

  const run = { cluster: CLUSTER, live: '../live.json', headSha: pull.headSha, posted: posted! };
  await expectCliPlanOfChange(join(work, 'plan'), { files: FILES, changed }, run);
}, 120_000);

it('a chart file over the limit of one file leaves that release not rendered, naming the file, in the plan', async () => {
  // 5 MiB of bytes that are not UTF-8, past the 4 MiB driftback reads of one file.
  const changed = { 'charts/webapp/files/huge.bin': new Uint8Array(5 * 1024 * 1024).fill(0xff) };
  const pull = openPullRequest(h, 'huge-file', changed);
  expect(await sendWebhook(h, 'pull_request', pullRequestPayload('opened', { ...pull, branch: 'huge-file' }))).toBe(
    200,
  );
  const [posted] = commentsOn(h, pull.number);
  expect(posted).toContain(
    'not rendered: file charts/webapp/files/huge.bin was not read: it is 5 MiB, over the 4 MiB driftback reads of one file: make it smaller or take it out',
  );
  // Nothing of the release is planned as pruned: its objects are set aside, not compared.
  expect(posted).not.toMatch(/prune <code>/);
  expect(posted).toContain('0 to prune');
  expect(posted).toMatch(
    /Kept \(never pruned\):.*`StatefulSet\/shop\/webapp-cache` \(may be made by a part of the source driftback does not render/,
  );
}, 120_000);
