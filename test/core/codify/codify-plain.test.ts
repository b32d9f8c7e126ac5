import { describe, expect, it } from 'vitest';
import { codifyDrift } from '../../../src/core/codify/index.js';
import { keyId, type DesiredObject, type KubeObject, type PathSegment } from '../../../src/core/model/index.js';
import { changedLines, configWith, diff, fixtureRepo, liveAfterHandEdit, render, type HandEdit } from './support.js';

const SERVER: PathSegment[] = ['spec', 'template', 'spec', 'containers', { key: { name: 'server' } }];

function scenario(repo: string, root: string, editsByName: Record<string, HandEdit[]>, manager = 'kubectl-edit') {
  const files = fixtureRepo(repo);
  const desired = render(files, root);
  const live = desired.map((d: DesiredObject) =>
    liveAfterHandEdit(d.object, editsByName[`${d.key.kind}/${d.key.name}`] ?? [], manager),
  );
  return { files, desired, live };
}

function runCodify(
  files: Map<string, string>,
  root: string,
  live: KubeObject[],
  sections: Record<string, unknown> = {},
) {
  const config = configWith(sections);
  const result = diff(render(files, root), live, config);
  return { result, out: codifyDrift({ files, root, result, live, config }), config };
}

describe('codify on plain multi-document manifests (microservices-demo)', () => {
  const root = 'kubernetes-manifests';
  const file = 'kubernetes-manifests/cartservice.yaml';

  it('sets a changed value in place, keeping quotes, and only that line changes', () => {
    const { files, live } = scenario('microservices-demo', root, {
      'Deployment/cartservice': [
        { segments: [...SERVER, 'env', { key: { name: 'REDIS_ADDR' } }, 'value'], value: 'redis-cart:6380' },
      ],
    });
    const { out } = runCodify(files, root, live);
    expect(out.check).toEqual({ ok: true });
    expect(out.codified).toMatchObject([{ file, kind: 'replace', line: 51 }]);
    expect([...out.edits.keys()]).toEqual([file]);
    expect(changedLines(files.get(file)!, out.edits.get(file)!)).toEqual({
      removed: ['          value: "redis-cart:6379"'],
      added: ['          value: "redis-cart:6380"'],
    });
  });

  it('adds a hand-added env var to the right container, in the non-indented list style of its siblings', () => {
    const { files, live } = scenario('microservices-demo', root, {
      'Deployment/cartservice': [
        { segments: [...SERVER, 'env', { key: { name: 'LOG_LEVEL' } }], value: { name: 'LOG_LEVEL', value: 'debug' } },
      ],
    });
    const { out } = runCodify(files, root, live);
    expect(out.check).toEqual({ ok: true });
    expect(out.codified.map((c) => c.kind)).toEqual(['add']);
    expect(changedLines(files.get(file)!, out.edits.get(file)!)).toEqual({
      removed: [],
      added: ['        - name: LOG_LEVEL', '          value: debug'],
    });
  });

  it('closes the loop: after codify the diff shows none of the codified changes and nothing new', () => {
    const { files, live } = scenario('microservices-demo', root, {
      'Deployment/cartservice': [
        { segments: ['spec', 'replicas'], value: 3 },
        { segments: [...SERVER, 'resources', 'limits', 'memory'], value: '256Mi' },
      ],
      'Service/frontend-external': [
        { segments: ['spec', 'ports', { key: { port: 80, protocol: 'TCP' } }, 'targetPort'], value: 8081 },
      ],
    });
    const { out, config } = runCodify(files, root, live);
    expect(out.check).toEqual({ ok: true });
    expect(out.codified).toHaveLength(3);
    const merged = new Map(files);
    for (const [path, text] of out.edits) merged.set(path, text);
    const after = diff(render(merged, root), live, config);
    expect(after.resources.filter((r) => r.status !== 'in-sync').map((r) => keyId(r.key))).toEqual([]);
    for (const [path, text] of out.edits) {
      const { removed, added } = changedLines(files.get(path)!, text);
      expect(removed.length + added.length).toBeLessThanOrEqual(3);
    }
  });

  it('reports changes made by a controller instead of codifying them', () => {
    const { files, live } = scenario(
      'microservices-demo',
      root,
      { 'Deployment/cartservice': [{ segments: [...SERVER, 'resources', 'requests', 'cpu'], value: '250m' }] },
      'vpa-updater',
    );
    const { out } = runCodify(files, root, live);
    expect(out.codified).toEqual([]);
    expect(out.edits.size).toBe(0);
    expect(out.reported.map((r) => r.reason)).toEqual([
      'changed by vpa-updater (controller); drift.causes is [human]: add controller to codify it',
      expect.stringMatching(/^conflict: Git declares a field vpa-updater owns\. remove /),
    ]);
  });

  it('with resolveConflicts: remove-field, drops the controller-owned field from the manifest', () => {
    const { files, live } = scenario(
      'microservices-demo',
      root,
      { 'Deployment/cartservice': [{ segments: [...SERVER, 'resources', 'requests', 'cpu'], value: '250m' }] },
      'vpa-updater',
    );
    const { out } = runCodify(files, root, live, { drift: { resolveConflicts: 'remove-field' } });
    expect(out.check).toEqual({ ok: true });
    expect(out.codified).toMatchObject([{ kind: 'remove-field', file, line: 54 }]);
    expect(changedLines(files.get(file)!, out.edits.get(file)!)).toEqual({
      removed: ['            cpu: 200m'],
      added: [],
    });
  });

  it('reports missing resources and never deletes a manifest', () => {
    const { files, live } = scenario('microservices-demo', root, {});
    const { out } = runCodify(
      files,
      root,
      live.filter((o) => o.metadata.name !== 'adservice'),
    );
    expect(out.edits.size).toBe(0);
    expect(out.reported.map((r) => `${r.key.kind}/${r.key.name}: ${r.reason}`)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Deployment\/adservice: missing in the cluster/)]),
    );
  });

  it('writes the live value of a field Git declares only when drift.codify includes modified', () => {
    const { files, live } = scenario('microservices-demo', root, {
      'Deployment/cartservice': [{ segments: [...SERVER, 'image'], value: 'cartservice:v2' }],
    });
    const { out } = runCodify(files, root, live, { drift: { codify: ['added', 'extra'] } });
    expect(out.codified).toEqual([]);
    expect(out.reported[0].reason).toBe('drift.codify does not include "modified": add it to codify changed fields');
  });
});

describe('codify on comment-heavy plain manifests (guestbook)', () => {
  it('changes the image and keeps the end-of-line comments around it', () => {
    const root = 'web/guestbook';
    const file = 'web/guestbook/redis-master-deployment.yaml';
    const files = fixtureRepo('kubernetes-examples');
    const desired = render(files, root);
    const target = desired.find((d) => d.source.file === file)!;
    const container = (
      target.object.spec as { template: { spec: { containers: Array<{ name: string; image: string }> } } }
    ).template.spec.containers[0];
    const live = desired.map((d) =>
      liveAfterHandEdit(
        d.object,
        d === target
          ? [
              {
                segments: ['spec', 'template', 'spec', 'containers', { key: { name: container.name } }, 'image'],
                value: 'registry.example/redis:7.2',
              },
            ]
          : [],
      ),
    );
    const { out } = runCodify(files, root, live);
    expect(out.check).toEqual({ ok: true });
    const { removed, added } = changedLines(files.get(file)!, out.edits.get(file)!);
    expect(removed).toHaveLength(1);
    expect(added).toEqual([removed[0].replace(container.image, 'registry.example/redis:7.2')]);
  });
});

describe('codify on flow-style manifests (Argo Rollouts examples)', () => {
  // github.com/argoproj/argo-rollouts examples/: the canary steps mix block items, comments and
  // `- pause: {duration: 40s}`; a custom resource's list is compared as a whole, so a hand edit of
  // one step is a change of the whole list.
  const root = 'examples';
  const file = 'examples/rollout-canary.yaml';
  const STEPS: PathSegment[] = ['spec', 'strategy', 'canary', 'steps'];

  it('a changed step rewrites its own line; flow entries, comments and the other files stay byte-for-byte', () => {
    const files = fixtureRepo('argo-rollouts');
    const desired = render(files, root);
    const rollout = desired.find((d) => d.source.file === file)!;
    const steps = structuredClone(
      (rollout.object.spec as { strategy: { canary: { steps: Array<Record<string, unknown>> } } }).strategy.canary
        .steps,
    );
    steps[5] = { pause: { duration: '30s' } };
    const live = desired.map((d) =>
      liveAfterHandEdit(d.object, d === rollout ? [{ segments: STEPS, value: steps }] : []),
    );
    const { out } = runCodify(files, root, live);
    expect(out.check).toEqual({ ok: true });
    expect(out.codified).toMatchObject([{ kind: 'replace', file, line: 35 }]);
    expect([...out.edits.keys()]).toEqual([file]);
    expect(changedLines(files.get(file)!, out.edits.get(file)!)).toEqual({
      removed: ['      - pause: {duration: 20s}'],
      added: ['      - pause: {duration: 30s}'],
    });
  });
});
