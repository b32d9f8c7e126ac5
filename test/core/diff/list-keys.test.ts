// The merge-key table: generated from Kubernetes' OpenAPI, committed, and kept in step with the script.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listKeysFor, parseQuantity, quantitiesEqual } from '../../../src/core/diff/index.js';
import { FIXTURES, REPO_ROOT } from '../../support/fixtures.js';

describe('listKeysFor', () => {
  const rows: Array<[string, string, string, string[] | undefined]> = [
    ['apps', 'Deployment', '/spec/template/spec/containers', ['name']],
    ['apps', 'Deployment', '/spec/template/spec/containers/*/ports', ['containerPort', 'protocol']],
    ['apps', 'StatefulSet', '/spec/template/spec/containers/*/volumeMounts', ['mountPath']],
    ['apps', 'DaemonSet', '/spec/template/spec/initContainers/*/env', ['name']],
    ['', 'Service', '/spec/ports', ['port', 'protocol']],
    ['', 'Pod', '/spec/volumes', ['name']],
    ['', 'ReplicationController', '/spec/template/spec/containers', ['name']],
    ['batch', 'Job', '/spec/template/spec/containers', ['name']],
    ['batch', 'CronJob', '/spec/jobTemplate/spec/template/spec/containers/*/env', ['name']],
    ['apps', 'Deployment', '/spec/template/spec/containers/*/args', undefined],
    ['apps', 'Deployment', '/spec/template/spec/tolerations', undefined],
    ['networking.k8s.io', 'Ingress', '/spec/rules', undefined],
    ['example.com', 'Widget', '/spec/containers', undefined],
  ];
  for (const [group, kind, pointer, keys] of rows) {
    it(`${group || 'core'}/${kind} ${pointer} → ${keys ? keys.join('+') : 'atomic'}`, () => {
      expect(listKeysFor(group, 'v1', kind, pointer)).toEqual(keys);
    });
  }

  it('the committed table is what the script generates from the OpenAPI documents', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'list-keys-')), 'list-keys.generated.ts');
    execFileSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts/gen-list-keys.ts'), join(FIXTURES, 'openapi/kubectl-testdata/openapi/v3'), out], { cwd: REPO_ROOT });
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(REPO_ROOT, 'src/core/diff/list-keys.generated.ts'), 'utf8'));
  }, 30_000);
});

describe('quantities', () => {
  const rows: Array<[unknown, unknown, boolean]> = [
    ['500m', '0.5', true], ['1Gi', '1024Mi', true], ['1e3', '1k', true], ['1E3', '1000', true], ['2', 2, true],
    ['1.5Gi', '1536Mi', true], ['100u', '0.1m', true], ['1Ki', '1024', true], ['1M', '1000k', true],
    ['1Mi', '1M', false], ['0.1', '101m', false],
  ];
  for (const [a, b, equal] of rows) it(`${String(a)} ${equal ? '=' : '≠'} ${String(b)}`, () => expect(quantitiesEqual(a, b)).toBe(equal));
  it('text that is not a quantity is not parsed', () => {
    for (const text of ['abc', '1 Gi', '', 'Gi', '1.2.3']) expect(parseQuantity(text)).toBeUndefined();
  });
});
