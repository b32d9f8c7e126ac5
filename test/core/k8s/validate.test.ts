// Manifests checked against their kind's OpenAPI schema (generated from the Kubernetes OpenAPI v3 documents).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaProblems } from '../../../src/core/k8s/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { FIXTURES, REPO_ROOT } from '../../support/fixtures.js';

const deployment = (container: Record<string, unknown>, spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container] } },
    ...spec,
  },
});

describe('schemaProblems', () => {
  it('accepts a valid manifest, int-or-string and quantities included', () => {
    const web = deployment(
      {
        name: 'web',
        image: 'nginx:1.27',
        ports: [{ containerPort: 80 }],
        resources: { limits: { memory: '256Mi', cpu: 1 } },
      },
      { strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } } },
    );
    expect(schemaProblems(web)).toEqual([]);
  });

  it.each([
    [
      'an unknown field',
      deployment({ name: 'web', image: 'nginx', imagePolicy: 'Always' }),
      '/spec/template/spec/containers/0/imagePolicy is not a field of this kind',
    ],
    [
      'a wrong type',
      deployment({ name: 'web', image: 'nginx' }, { replicas: 'two' }),
      '/spec/replicas must be an integer, not string',
    ],
    ['a missing required field', deployment({ image: 'nginx' }), '/spec/template/spec/containers/0/name is required'],
    [
      'a map where a list belongs',
      deployment({ name: 'web', image: 'nginx', args: { a: 1 } }),
      '/spec/template/spec/containers/0/args must be a list, not object',
    ],
  ])('rejects %s', (_name, object, problem) => {
    expect(schemaProblems(object).map((p) => `${p.path} ${p.message}`)).toEqual([problem]);
  });

  it('leaves kinds it does not know (custom resources) unchecked', () => {
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { any: 1 } };
    expect(schemaProblems(widget)).toEqual([]);
  });
});

describe('the schema table', () => {
  it('the committed table is what the script generates from the OpenAPI documents', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'schema-')), 'schema.generated.ts');
    const script = join(REPO_ROOT, 'scripts/gen-openapi-schema.ts');
    const openapi = join(FIXTURES, 'kubernetes-openapi-v3');
    execFileSync(process.execPath, ['--import', 'tsx', script, '--openapi', openapi, '--out', out], { cwd: REPO_ROOT });
    const committed = readFileSync(join(REPO_ROOT, 'src/core/k8s/schema.generated.ts'), 'utf8');
    expect(readFileSync(out, 'utf8')).toBe(committed);
  }, 60_000);
});
