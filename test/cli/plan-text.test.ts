// `driftback plan --format text` as a person reads it in a terminal: warnings of one kind on one
// resource with the same advice are one warning with a line per field (as the plan comment groups them),
// and a whole env entry reads as the shell writes it (`TRACE=1`), one with `valueFrom` as a map.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { KubeObject, ManagedFieldsEntry } from '../../src/core/model/index.js';
import { expectGolden } from './golden.js';
import { runCli } from './run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'driftback-plan-text-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const HEAD = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: shop
spec:
  replicas: 2
  selector:
    matchLabels:
      app: api
  template:
    metadata:
      labels:
        app: api
    spec:
      containers:
        - name: api
          image: registry.example/shop/api:1.4.0
          env:
            - name: LOG_FORMAT
              value: json
            - name: TRACE
              value: "1"
            - name: API_KEY
              valueFrom:
                secretKeyRef:
                  name: api
                  key: key
`;

/** fieldsV1 of the api container's fields. */
const container = (fields: Record<string, unknown>) => ({
  'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"api"}': fields } } } },
});

function wrote(
  manager: string,
  operation: string,
  time: string,
  fieldsV1: Record<string, unknown>,
): ManagedFieldsEntry {
  return { manager, operation, apiVersion: 'apps/v1', time, fieldsType: 'FieldsV1', fieldsV1 };
}

// Flux applied LOG_LEVEL (head drops it); kubectl scaled and set the image by hand since.
const LIVE: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'api',
    namespace: 'shop',
    uid: '00000000-0000-0000-0000-000000000001',
    creationTimestamp: '2026-12-01T09:00:00Z',
    managedFields: [
      wrote('kustomize-controller', 'Apply', '2026-12-01T09:00:00Z', {
        ...container({ 'f:env': { 'k:{"name":"LOG_LEVEL"}': { '.': {}, 'f:name': {}, 'f:value': {} } } }),
      }),
      wrote('kubectl-scale', 'Update', '2026-12-02T03:02:00Z', { 'f:spec': { 'f:replicas': {} } }),
      wrote('kubectl-set', 'Update', '2026-12-02T03:05:00Z', container({ 'f:image': {} })),
    ],
  },
  spec: {
    replicas: 5,
    selector: { matchLabels: { app: 'api' } },
    template: {
      metadata: { labels: { app: 'api' } },
      spec: {
        containers: [
          {
            name: 'api',
            image: 'registry.example/shop/api:1.4.1',
            env: [
              { name: 'LOG_FORMAT', value: 'json' },
              { name: 'LOG_LEVEL', value: 'debug' },
            ],
          },
        ],
      },
    },
  },
};

mkdirSync(join(work, 'head'));
writeFileSync(join(work, 'head/api.yaml'), HEAD);
writeFileSync(
  join(work, 'live.json'),
  JSON.stringify({
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: 'acme/shop',
    cluster: 'prod',
    // Fresh, so that no stale-snapshot warning (which names the age) is in the golden.
    capturedAt: new Date(Date.now() - 60_000).toISOString(),
    scope: { complete: true, errors: [] },
    items: [LIVE],
  }),
);

describe('driftback plan --format text', () => {
  it('says the advice once for two reverted fields of one Deployment, with a line per field', async () => {
    const { code, stdout } = await runCli(['plan', '--head', 'head', '--live', 'live.json'], { cwd: work });
    expect(code).toBe(1);
    expect(stdout.match(/! reverts-live-change/g)).toHaveLength(1);
    expect(stdout).toContain(
      "  ! reverts-live-change Deployment/shop/api: If the live value should stay, write it into Git first (merge driftback's drift pull request for this cluster, or run `driftback codify`), then rebase.\n" +
        "      api.yaml:7: Applying this replaces kubectl-scale's live `5` (2026-12-02 03:02 UTC) in `spec.replicas` with `2`.\n" +
        "      api.yaml:18: Applying this replaces kubectl-set's live `registry.example/shop/api:1.4.1` (2026-12-02 03:05 UTC) in `spec.template.spec.containers[api].image` with `registry.example/shop/api:1.4.0`.\n",
    );
    expectGolden('plan-grouped-warnings.txt', stdout);
  });

  it('prints a whole env entry as NAME=value, and one with valueFrom as a map without its name', async () => {
    const { stdout } = await runCli(['plan', '--head', 'head', '--live', 'live.json'], { cwd: work });
    expect(stdout).toContain('      + spec.template.spec.containers[api].env[TRACE]: TRACE=1\n');
    expect(stdout).toContain('      - spec.template.spec.containers[api].env[LOG_LEVEL]: LOG_LEVEL=debug\n');
    expect(stdout).toContain(
      '      + spec.template.spec.containers[api].env[API_KEY]: {valueFrom: {secretKeyRef: {name: api, key: key}}}\n',
    );
    expect(stdout).not.toContain('(unset)');
  });
});
