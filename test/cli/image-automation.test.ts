// A field Flux image automation writes, changed by hand: image-automation-controller's own setter test
// data (pkg/update/testdata/setters/original/marked.yaml: `image: image:v1.0.0 # {"$imagepolicy":
// "automation-ns:policy"}`), live after kustomize-controller applied it and `kubectl set image` (manager
// kubectl-set, an Update of the container's image) rolled it back to another tag.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeObject } from '../../src/core/model/index.js';
import { fixturePath, readFixture } from '../support/fixtures.js';
import { runCli } from './run-cli.js';

const DATA = 'manifests/image-automation-controller/pkg/update/testdata/setters/original';
const work = mkdtempSync(join(tmpdir(), 'driftback-image-automation-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
cpSync(fixturePath(DATA), join(work, 'repo'), { recursive: true });

const live = parse(readFixture(DATA, 'marked.yaml')) as KubeObject;
const container = (live.spec as any).jobTemplate.spec.template.spec.containers[0];
container.image = 'image:v0.9.0';
live.metadata = {
  ...live.metadata,
  uid: 'uid-foo',
  creationTimestamp: '2026-12-01T09:00:00Z',
  managedFields: [
    {
      manager: 'kustomize-controller',
      operation: 'Apply',
      apiVersion: 'batch/v1',
      time: '2026-12-01T09:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:schedule': {} } },
    },
    {
      manager: 'kubectl-set',
      operation: 'Update',
      apiVersion: 'batch/v1',
      time: '2026-12-01T12:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:spec': {
          'f:jobTemplate': {
            'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { 'f:image': {} } } } } },
          },
        },
      },
    },
  ],
};
writeFileSync(join(work, 'live.json'), JSON.stringify([live]));

describe('a hand change to a field image automation writes', () => {
  it('is reported with the policy that owns it, not as drift', async () => {
    const run = await runCli(['diff', '--desired', 'repo', '--live', 'live.json', '--format', 'json'], { cwd: work });
    expect(run.stderr).toBe('');
    const doc = JSON.parse(run.stdout);
    expect(doc.summary).toMatchObject({ modified: 0 });
    expect(doc.reported).toEqual([
      expect.objectContaining({
        path: '/spec/jobTemplate/spec/template/spec/containers/0/image',
        manager: 'kubectl-set',
        reason: expect.stringMatching(
          /^written by Flux image automation \(ImagePolicy automation-ns\/policy, marker at marked\.yaml:14\): never codified/,
        ),
      }),
    ]);
  });

  it('is never codified: the marked line stays byte for byte', async () => {
    const before = readFileSync(join(work, 'repo/marked.yaml'), 'utf8');
    const run = await runCli(['codify', '--repo', 'repo', '--live', 'live.json'], { cwd: work });
    expect(run.code).toBeLessThan(2);
    expect(readFileSync(join(work, 'repo/marked.yaml'), 'utf8')).toBe(before);
  });
});

describe('a pull request that sets a field image automation writes', () => {
  it('gets a plan note: the automation writes its own image there again', async () => {
    const head = join(work, 'head');
    cpSync(join(work, 'repo'), head, { recursive: true });
    const text = readFileSync(join(head, 'marked.yaml'), 'utf8');
    writeFileSync(join(head, 'marked.yaml'), text.replace('image:v1.0.0 #', 'image:v1.1.0 #'));
    const run = await runCli(['plan', '--head', 'head', '--live', 'live.json', '--format', 'json'], { cwd: work });
    expect(run.stderr).toBe('');
    const doc = JSON.parse(run.stdout);
    expect(doc.warnings).toContainEqual(
      expect.objectContaining({
        code: 'conflict',
        path: '/spec/jobTemplate/spec/template/spec/containers/0/image',
        message: expect.stringMatching(
          /to `image:v1\.1\.0`, a field Flux image automation writes \(ImagePolicy automation-ns\/policy, marker at marked\.yaml:14\).*pin the ImagePolicy or suspend the ImageUpdateAutomation/,
        ),
      }),
    );
  });
});
