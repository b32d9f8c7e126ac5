// `driftback plan` end to end, in-process, on the microservices-demo repository: head edits one
// image and deletes one service file, base is upstream, live is what base applied.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderManifests } from '../../src/core/manifests/index.js';
import { fixturePath, readFixtureTree } from '../support/fixtures.js';
import { liveOf } from '../core/plan/build.js';
import { runCli } from './run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-plan-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const source = fixturePath('manifests/microservices-demo/kubernetes-manifests');
cpSync(source, join(work, 'base'), { recursive: true });
cpSync(source, join(work, 'head'), { recursive: true });
cpSync(source, join(work, 'same'), { recursive: true });
const cartFile = join(work, 'head/cartservice.yaml');
writeFileSync(cartFile, readFileSync(cartFile, 'utf8').replace('image: cartservice\n', 'image: cartservice:v2\n'));
rmSync(join(work, 'head/emailservice.yaml'));
const kustomization = join(work, 'head/kustomization.yaml');
writeFileSync(kustomization, readFileSync(kustomization, 'utf8').replace(/^.*emailservice\.yaml\n/m, ''));

const rendered = renderManifests(readFixtureTree('manifests/microservices-demo/kubernetes-manifests'), '', {
  defaultNamespace: 'default',
});
const snapshot = {
  apiVersion: 'driftback.dev/v1',
  kind: 'Snapshot',
  repository: 'acme/shop',
  cluster: 'prod-eu',
  capturedAt: new Date(Date.now() - 60_000).toISOString(),
  scope: { complete: true, errors: [] },
  items: rendered.objects.map((d) => liveOf(d)),
};
writeFileSync(join(work, 'live.json'), JSON.stringify(snapshot));

const plan = (...args: string[]) => runCli(['plan', ...args], { cwd: work });

describe('driftback plan', () => {
  it('exits 0 and says so when head is what the cluster runs', async () => {
    const result = await plan('--head', 'same', '--live', 'live.json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^prod-eu: 0 to create, 0 to update, 0 to prune, \d+ unchanged/);
  });

  it('exits 1 with the update and the prune in text', async () => {
    const result = await plan('--head', 'head', '--base', 'base', '--live', 'live.json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('prod-eu: 0 to create, 1 to update, 3 to prune');
    expect(result.stdout).toContain('  ~ Deployment/default/cartservice');
    expect(result.stdout).toContain(
      '      ~ spec.template.spec.containers[server].image: cartservice → cartservice:v2',
    );
    expect(result.stdout).toContain('  - Deployment/default/emailservice');
  });

  it('prints the JSON document of the contract', async () => {
    const result = await plan('--head', 'head', '--base', 'base', '--live', 'live.json', '--format', 'json');
    const doc = JSON.parse(result.stdout);
    expect(Object.keys(doc)).toEqual(expect.arrayContaining(['create', 'update', 'prune', 'unchanged', 'warnings']));
    expect(doc.update[0]).toMatchObject({
      id: { group: 'apps', kind: 'Deployment', namespace: 'default', name: 'cartservice' },
      changes: [
        {
          path: '/spec/template/spec/containers/0/image',
          op: 'replace',
          desired: 'cartservice:v2',
          live: 'cartservice',
        },
      ],
    });
    expect(doc.prune.map((p: { id: { kind: string; name: string } }) => `${p.id.kind}/${p.id.name}`).sort()).toEqual([
      'Deployment/emailservice',
      'Service/emailservice',
      'ServiceAccount/emailservice',
    ]);
  });

  it('prints the pull request comment as markdown', async () => {
    const result = await plan('--head', 'head', '--base', 'base', '--live', 'live.json', '--format', 'markdown');
    expect(result.stdout).toContain('#### prod-eu\n\n**0 to create, 1 to update, 3 to prune');
    expect(result.stdout).toContain(
      '<details><summary><code>~</code> update <code>Deployment/default/cartservice</code>',
    );
  });

  it.each([
    [['--live', 'live.json'], /--head is required/],
    [['--head', 'head'], /--live is required/],
    [['--head', 'nowhere', '--live', 'live.json'], /nowhere: no such file or directory/],
    [['--head', 'head', '--live', 'live.json', '--format', 'yaml'], /--format yaml: expected text, json or markdown/],
    [['--head', 'head', '--live', 'live.json', '--cluster', 'prod'], /--cluster prod: needs the config/],
  ])('exits 2 with one line for %j', async (args, message) => {
    const result = await plan(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
