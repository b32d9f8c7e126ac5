// SOPS-encrypted Secrets in Git, which kustomize-controller decrypts before applying (`spec.decryption.provider:
// sops`, internal/decryptor): the shape is what `sops --encrypt --encrypted-regex '^(data|stringData)$'` writes
// (an `ENC[AES256_GCM,data:…,iv:…,tag:…,type:str]` value per key, the `sops:` metadata block with age
// recipients, `lastmodified`, `mac` and `version`). driftback never decrypts: the values are not compared and
// never printed, the `sops:` block is no part of the object, the other fields are compared as usual.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfig } from '../../../src/core/config/index.js';
import { evaluateDrift, reconcileDrift } from '../../../src/core/pipeline/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';

function configOf(controller: string, path: string) {
  const parsed = parseConfig(`clusters:\n  - name: dev\n    path: ${path}\n    controller: ${controller}\n`);
  if (!parsed.ok) throw new Error('config');
  return { config: parsed.config, cluster: parsed.config.clusters![0]! };
}

const encrypted = `apiVersion: v1
kind: Secret
metadata:
  name: db-credentials
  namespace: apps
type: Opaque
stringData:
  username: ENC[AES256_GCM,data:bGVtb24=,iv:q83HfNbFT1Y0A2Q3P4Yx0aSR6bS3t3gb1gV7c1qv4Xc=,tag:8m5bMZ8yOq1h0Jp3wHq4Zg==,type:str]
  password: ENC[AES256_GCM,data:c29tZS1wYXNzd29yZA==,iv:l2Xc5JYl3eGdF0sVvY9W1nU0h7Jb1cQ1j3P1m9kqL2E=,tag:Uq7m0ZC3pF2w7Z0Hh8r0Lg==,type:str]
sops:
  kms: []
  gcp_kms: []
  azure_kv: []
  hc_vault: []
  age:
    - recipient: age1helqcqsh9464r8chnwc2fzj8uv7vr5ntnsft0tn45v2xtz0hpfwq98cmsg
      enc: |
        -----BEGIN AGE ENCRYPTED FILE-----
        YWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+IFgyNTUxOSBrcXZ0Q0N0R2N0Rk1uR0tN
        -----END AGE ENCRYPTED FILE-----
  lastmodified: "2026-11-20T10:00:00Z"
  mac: ENC[AES256_GCM,data:Y2hlY2tzdW0=,iv:8nZ5dJ3m1yq7KXc0tJ8y1Q6cN0dO9Vg5Qm1B0t3kX4w=,tag:p9Rz1d2vF0q5Xw==,type:str]
  pgp: []
  encrypted_regex: ^(data|stringData)$
  version: 3.9.1
`;

const apps = {
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: { name: 'apps', namespace: 'flux-system' },
  spec: {
    interval: '10m',
    path: './apps',
    prune: true,
    sourceRef: { kind: 'GitRepository', name: 'flux-system' },
    decryption: { provider: 'sops', secretRef: { name: 'sops-age' } },
  },
};

const files = new Map([
  ['clusters/dev/apps.yaml', stringify(apps)],
  ['apps/db-credentials.yaml', encrypted],
]);

/** The Secret as the agent uploads it: values as keyed hashes, written by kustomize-controller, then maybe by hand. */
function liveSecret(hand?: { manager: string; time: string }, type = 'Opaque'): KubeObject {
  const managedFields = [
    {
      manager: 'kustomize-controller',
      operation: 'Apply',
      apiVersion: 'v1',
      time: '2026-11-20T10:05:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { 'f:password': {}, 'f:username': {} }, 'f:type': {} },
    },
    ...(hand
      ? [
          {
            ...hand,
            operation: 'Update',
            apiVersion: 'v1',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:data': { 'f:password': {} } },
          },
        ]
      : []),
  ];
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'db-credentials',
      namespace: 'apps',
      labels: { 'kustomize.toolkit.fluxcd.io/name': 'apps', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' },
      managedFields,
    },
    type,
    data: { username: 'sha256:1f2e3d', password: hand ? 'sha256:9999aa' : 'sha256:4c5b6a' },
  };
}

function evaluate(secret: KubeObject, setup = { ...configOf('flux', 'clusters/dev'), files }) {
  const evaluation = evaluateDrift({
    snapshot: {
      items: [secret],
      capturedAt: '2026-12-01T12:05:00Z',
      scope: { namespaces: ['apps', 'flux-system'], complete: true, errors: [] },
    },
    ...{ ...setup, history: [], minSnapshots: 1, declined: new Set<string>() },
  });
  if (evaluation.type !== 'evaluated') throw new Error(JSON.stringify(evaluation));
  return evaluation;
}

describe('a SOPS-encrypted Secret in Git (Flux spec.decryption)', () => {
  it('is never drift: its sops block is not part of it and its values are not compared', () => {
    const evaluation = evaluate(liveSecret());
    const secret = evaluation.diff.resources.find((r) => r.key.kind === 'Secret')!;
    expect(secret.changes).toEqual([]);
    const note = evaluation.notes.find((n) => n.code === 'not-checkable' && n.key?.name === 'db-credentials');
    expect(note?.message).toBe('encrypted in Git (SOPS): values not compared');
  });

  it('never prints ciphertext or the sops metadata', () => {
    const text = JSON.stringify(evaluate(liveSecret()));
    expect(text).not.toContain('ENC[AES256_GCM');
    expect(text).not.toContain('age1helqcqsh');
  });

  it('a hand change to its values is reported by manager and time only', () => {
    const evaluation = evaluate(liveSecret({ manager: 'kubectl-edit', time: '2026-12-01T11:00:00Z' }));
    const secret = evaluation.diff.resources.find((r) => r.key.kind === 'Secret')!;
    expect(secret.changes).toEqual([]);
    const note = evaluation.notes.find((n) => n.key?.name === 'db-credentials');
    expect(note?.message).toBe(
      'encrypted in Git (SOPS): values not compared; its values were last written by kubectl-edit (Update) at 2026-12-01 11:00 UTC',
    );
  });

  it('its other fields are still compared', () => {
    const evaluation = evaluate(liveSecret(undefined, 'kubernetes.io/basic-auth'));
    const secret = evaluation.diff.resources.find((r) => r.key.kind === 'Secret')!;
    expect(secret.changes.map((c) => c.path)).toEqual(['/type']);
  });
});

// Sources that do not decrypt with Flux's spec.decryption: the same Secret, the same rule, the reason said.
const argoApp = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Application',
  metadata: { name: 'db', namespace: 'argocd' },
  spec: {
    project: 'default',
    source: { repoURL: 'https://github.com/example/gitops.git', path: 'apps', targetRevision: 'HEAD' },
    destination: { server: 'https://kubernetes.default.svc', namespace: 'apps' },
  },
};
const { decryption: _none, ...withoutDecryption } = apps.spec;

const others = [
  {
    name: 'an Argo CD Application (KSOPS, helm-secrets)',
    setup: () => ({
      ...configOf('argocd', 'argocd'),
      files: new Map([
        ['argocd/db.yaml', stringify(argoApp)],
        ['apps/db-credentials.yaml', encrypted],
      ]),
    }),
    reason: 'decrypted by a plugin driftback does not run',
    // Argo CD's annotation tracking (its default since v3.0) on what it applied.
    stamp: (o: KubeObject): KubeObject => ({
      ...o,
      metadata: { ...o.metadata, annotations: { 'argocd.argoproj.io/tracking-id': 'db:/Secret:apps/db-credentials' } },
    }),
  },
  {
    name: 'a plain kubectl path',
    setup: () => ({ ...configOf('kubectl', 'apps'), files: new Map([['apps/db-credentials.yaml', encrypted]]) }),
    reason: 'decrypted by a tool driftback does not run (sops --decrypt before kubectl apply)',
  },
  {
    name: 'a Flux Kustomization without spec.decryption',
    setup: () => ({
      ...configOf('flux', 'clusters/dev'),
      files: new Map([
        ['clusters/dev/apps.yaml', stringify({ ...apps, spec: withoutDecryption })],
        ['apps/db-credentials.yaml', encrypted],
      ]),
    }),
    reason:
      'the Kustomization sets no spec.decryption: kustomize-controller applies the ciphertext as-is, or the apply fails',
  },
];

describe.each(others)('a SOPS-encrypted Secret in Git applied by $name', ({ setup, reason, stamp }) => {
  const live = (hand?: { manager: string; time: string }) => (stamp ?? ((o: KubeObject) => o))(liveSecret(hand));
  it('is never drift, never printed, and reported as encrypted with the reason', () => {
    const evaluation = evaluate(live(), setup());
    const secret = evaluation.diff.resources.find((r) => r.key.kind === 'Secret')!;
    expect(secret.status).toBe('in-sync');
    expect(secret.changes).toEqual([]);
    const note = evaluation.notes.find((n) => n.code === 'not-checkable' && n.key?.name === 'db-credentials');
    expect(note?.message).toBe(`encrypted in Git (SOPS): values not compared (${reason})`);
    const text = JSON.stringify(evaluation);
    expect(text).not.toContain('ENC[AES256_GCM');
    expect(text).not.toContain('age1helqcqsh');
  });

  it('a hand change to its values is reported by manager and time, never as a field change', () => {
    const evaluation = evaluate(live({ manager: 'kubectl-edit', time: '2026-12-01T11:00:00Z' }), setup());
    const secret = evaluation.diff.resources.find((r) => r.key.kind === 'Secret')!;
    expect(secret.changes).toEqual([]);
    const note = evaluation.notes.find((n) => n.key?.name === 'db-credentials');
    expect(note?.message).toContain('its values were last written by kubectl-edit (Update) at 2026-12-01 11:00 UTC');
  });
});

// Codify and a SOPS file: `sops` computes the file's MAC over every value, encrypted or not (sops's tree
// walk hashes each leaf unless `mac_only_encrypted` is set; Flux's SOPS guide: "The MAC covers keys and values
// as well as their ordering"). Writing even an unencrypted field (`type`) into the file would make
// `sops --decrypt` — and kustomize-controller's decryption, KSOPS, helm-secrets — fail with a MAC mismatch, so
// such a file is never edited: each change to it is reported with who made it and when.
const sources = [
  {
    name: 'a Flux Kustomization with spec.decryption',
    setup: () => ({ ...configOf('flux', 'clusters/dev'), files }),
    stamp: undefined,
  },
  ...others,
];

describe.each(sources)('codify and a SOPS-encrypted file applied by $name', ({ setup, stamp }) => {
  it('never edits the file: a hand change to an unencrypted field is reported with its manager and time', () => {
    const changed = liveSecret({ manager: 'kubectl-edit', time: '2026-12-01T11:00:00Z' }, 'kubernetes.io/basic-auth');
    const hand = changed.metadata.managedFields![1]!;
    hand.fieldsV1 = { 'f:data': { 'f:password': {} }, 'f:type': {} };
    const evaluation = reconcileDrift({
      snapshot: {
        items: [(stamp ?? ((o: KubeObject) => o))(changed)],
        capturedAt: '2026-12-01T12:05:00Z',
        scope: { namespaces: ['apps', 'flux-system', 'argocd'], complete: true, errors: [] },
      },
      ...{ ...setup(), history: [], minSnapshots: 1, declined: new Set<string>() },
    });
    if (evaluation.type !== 'evaluated') throw new Error(JSON.stringify(evaluation));
    const secret = evaluation.diff.resources.find((r) => r.key.kind === 'Secret')!;
    expect(secret.changes.map((c) => c.path)).toEqual(['/type']);
    const edited = evaluation.groups.flatMap((group) => [...group.codify.edits.keys()]);
    expect(edited).not.toContain('apps/db-credentials.yaml');
    const reported = evaluation.groups.flatMap((group) => group.codify.reported);
    expect(reported.filter((r) => r.key.kind === 'Secret')).toEqual([
      expect.objectContaining({
        change: expect.objectContaining({ path: '/type', manager: 'kubectl-edit', time: '2026-12-01T11:00:00Z' }),
        reason: expect.stringContaining(
          'apps/db-credentials.yaml is SOPS-encrypted and its MAC covers every value, encrypted or not',
        ),
      }),
    ]);
    const text = JSON.stringify(evaluation.groups.map((group) => group.codify));
    expect(text).not.toContain('ENC[AES256_GCM');
  });
});

describe('a SOPS-encrypted Secret directly at a GitOps cluster path that no source renders', () => {
  it.each([
    ['Argo CD', 'argocd', 'argocd', stringify(argoApp)],
    ['Flux', 'flux', 'clusters/dev', stringify(apps)],
  ])('%s: applied by hand, so masked and never drift', (_, controller, path, root) => {
    const setup = {
      ...configOf(controller, path),
      files: new Map([
        [`${path}/root.yaml`, root],
        [`${path}/db-credentials.yaml`, encrypted],
      ]),
    };
    const evaluation = evaluate(liveSecret(), setup);
    const secret = evaluation.diff.resources.find((r) => r.key.kind === 'Secret')!;
    expect(secret.changes).toEqual([]);
    const note = evaluation.notes.find((n) => n.code === 'not-checkable' && n.key?.name === 'db-credentials');
    expect(note?.message).toBe(
      'encrypted in Git (SOPS): values not compared (decrypted by a tool driftback does not run (sops --decrypt before kubectl apply))',
    );
    expect(JSON.stringify(evaluation)).not.toContain('ENC[AES256_GCM');
  });
});
