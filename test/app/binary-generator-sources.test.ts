// A kustomize generator whose `files:` are not text (an image, a keystore named .png and .bin) is read
// by the App as the command line reads it: the reconcile's drift pull request and a pull request's
// plan, made by the real App from the GitHub stand-in, are what `driftback codify` and `driftback plan`
// make of the same files on disk (the ConfigMap's binaryData, its name hash, the Deployment naming it).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fileText } from '../../src/core/model/index.js';
import { fixturePath } from '../support/fixtures.js';
import { appliedObjects, CLUSTER, CLUSTER_PATH, configText, scaled } from './live.js';
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

const SOURCES = fixturePath('..', 'kustomize-oracle', 'binary-generator-sources', 'input', 'base');
const LOGO = new Uint8Array(readFileSync(join(SOURCES, 'logo.gif')));
const KEYSTORE = new Uint8Array(readFileSync(join(SOURCES, 'keystore.p12')));
const WEB = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata:',
  '  name: web',
  'spec:',
  '  replicas: 2',
  '  selector:',
  '    matchLabels: {app: web}',
  '  template:',
  '    metadata:',
  '      labels: {app: web}',
  '    spec:',
  '      containers:',
  '        - name: web',
  '          image: ghcr.io/acme/web:1.0',
  '      volumes:',
  '        - name: assets',
  '          configMap: {name: assets}',
  '',
].join('\n');
const FILES: Record<string, string | Uint8Array> = {
  '.github/driftback.yml': configText(),
  [`${CLUSTER_PATH}/kustomization.yaml`]: [
    'resources: [web.yaml]',
    'configMapGenerator:',
    '  - name: assets',
    '    files: [logo.png, keystore.bin]',
    '',
  ].join('\n'),
  [`${CLUSTER_PATH}/web.yaml`]: WEB,
  [`${CLUSTER_PATH}/logo.png`]: LOGO,
  [`${CLUSTER_PATH}/keystore.bin`]: KEYSTORE,
};
/** The files as driftback holds them (bytes that are not UTF-8, marked). */
const asText = (files: Record<string, string | Uint8Array>) =>
  Object.fromEntries(
    Object.entries(files).map(([path, content]) => [path, typeof content === 'string' ? content : fileText(content)]),
  );

const NOW = new Date();
const CAPTURED = new Date(NOW.getTime() - 5 * 60_000).toISOString();
const work = mkdtempSync(join(tmpdir(), 'driftback-binary-sources-'));
let h: Harness;
const live = scaled(appliedObjects(asText(FILES)), 'web', 3);

beforeAll(async () => {
  h = await startHarness(FILES, NOW.toISOString());
  expect(await uploadSnapshot(h, CLUSTER, live, CAPTURED)).toBe(202);
  await drain(h);
  const snapshot = {
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: REPOSITORY,
    cluster: CLUSTER,
    capturedAt: CAPTURED,
    scope: { complete: true, errors: [] },
    items: live,
  };
  writeFileSync(join(work, 'live.json'), JSON.stringify(snapshot));
}, 60_000);
afterAll(async () => {
  await h?.close();
  rmSync(work, { recursive: true, force: true });
});

it('the cluster runs a ConfigMap whose binaryData holds the bytes of the .png and the .bin', () => {
  const configMap = live.find((object) => object.kind === 'ConfigMap')!;
  expect(configMap.metadata.name).toMatch(/^assets-/);
  expect(configMap.binaryData).toEqual({
    'logo.png': Buffer.from(LOGO).toString('base64'),
    'keystore.bin': expect.stringMatching(/^[A-Za-z0-9+/=\n]+$/),
  });
});

it('the drift pull request is what driftback codify writes', async () => {
  const branch = h.standIn.readFiles('acme', 'platform', `driftback/${CLUSTER}`);
  const cli = await cliCodify(work, FILES, { cluster: CLUSTER, live: join(work, 'live.json') });
  expect(cli.stderr).toBe('');
  expect(cli.code).toBe(0);
  expect(branch.get(`${CLUSTER_PATH}/web.yaml`)).toBe(WEB.replace('replicas: 2', 'replicas: 3'));
  expect(cli.text(`${CLUSTER_PATH}/web.yaml`)).toBe(branch.get(`${CLUSTER_PATH}/web.yaml`));
});

it('the plan of a pull request that changes the image is the one driftback plan prints', async () => {
  const logo = Uint8Array.from(LOGO);
  logo[logo.length - 2] = 0x01;
  const changed = { [`${CLUSTER_PATH}/logo.png`]: logo };
  const pull = openPullRequest(h, 'new-logo', changed);
  expect(await sendWebhook(h, 'pull_request', pullRequestPayload('opened', { ...pull, branch: 'new-logo' }))).toBe(200);
  const [posted] = commentsOn(h, pull.number);
  expect(posted).toMatch(/create <code>ConfigMap\/shop\/assets-/);

  const run = { cluster: CLUSTER, live: '../live.json', headSha: pull.headSha, posted: posted! };
  await expectCliPlanOfChange(join(work, 'plan'), { files: FILES, changed }, run);
});
