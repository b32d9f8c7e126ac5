// The merge-key table: generated from Kubernetes' OpenAPI, committed, and kept in step with the script.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  listKeysFor, parseQuantity, quantitiesEqual, strategicMergeOf, type StrategicMerge,
} from '../../../src/core/k8s/index.js';
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
    // No list annotation in the API: one value for server-side apply, whatever the items hold.
    ['apps', 'StatefulSet', '/spec/volumeClaimTemplates', undefined],
    // A set (merge strategy, no key) is not keyed.
    ['', 'Node', '/spec/podCIDRs', undefined],
    ['', 'Service', '/metadata/finalizers', undefined],
  ];
  for (const [group, kind, pointer, keys] of rows) {
    it(`${group || 'core'}/${kind} ${pointer} → ${keys ? keys.join('+') : 'atomic'}`, () => {
      expect(listKeysFor(group, kind, pointer)).toEqual(keys);
    });
  }

  it('the committed table is what the script generates from the OpenAPI documents', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'list-facts-')), 'list-facts.generated.ts');
    const openapi = join(FIXTURES, 'openapi/kubectl-testdata/openapi/v3');
    const script = join(REPO_ROOT, 'scripts/gen-list-facts.ts');
    execFileSync(process.execPath, ['--import', 'tsx', script, openapi, out], { cwd: REPO_ROOT });
    const committed = readFileSync(join(REPO_ROOT, 'src/core/k8s/list-facts.generated.ts'), 'utf8');
    expect(readFileSync(out, 'utf8')).toBe(committed);
  }, 30_000);
});

describe('strategicMergeOf (kustomize: list-map-keys when the list has a patch strategy, else its merge key)', () => {
  const keyed = (...keys: string[]): StrategicMerge => ({ type: 'keyed', keys });
  const rows: Array<[string, string, string, StrategicMerge]> = [
    ['apps', 'Deployment', 'spec/template/spec/containers', keyed('name')],
    // The API's patch merge key is containerPort; its list-map-keys add the protocol, and kustomize uses those.
    ['apps', 'Deployment', 'spec/template/spec/containers/*/ports', keyed('containerPort', 'protocol')],
    ['', 'Service', 'spec/ports', keyed('port', 'protocol')],
    ['', 'Pod', 'spec/volumes', keyed('name')],
    ['batch', 'CronJob', 'spec/jobTemplate/spec/template/spec/initContainers/*/env', keyed('name')],
    // Server-side apply keys resource claims by name; they carry no patch strategy, so a patch replaces them.
    ['apps', 'Deployment', 'spec/template/spec/containers/*/resources/claims', { type: 'replace' }],
    ['apps', 'StatefulSet', 'spec/volumeClaimTemplates', { type: 'replace' }],
    ['apps', 'Deployment', 'spec/template/spec/tolerations', { type: 'replace' }],
    ['', 'ConfigMap', 'metadata/finalizers', { type: 'set' }],
    ['', 'Node', 'spec/podCIDRs', { type: 'set' }],
    // A built-in kind the generated table lacks still has its pod spec lists.
    ['apps', 'ControllerRevision', 'data/spec/template/spec/containers', keyed('name')],
    ['example.com', 'Widget', 'spec/template/spec/containers', { type: 'replace' }],
  ];
  it.each(rows)('%s/%s %s', (group, kind, path, merge) => {
    expect(strategicMergeOf(group, kind, path.split('/'))).toEqual(merge);
  });

  it('keeps the two merges apart where the API annotates them differently', () => {
    const pointer = '/spec/template/spec/containers/*/resources/claims';
    expect(listKeysFor('apps', 'Deployment', pointer)).toEqual(['name']);
    expect(strategicMergeOf('apps', 'Deployment', pointer.slice(1).split('/'))).toEqual({ type: 'replace' });
  });
});

describe('quantities', () => {
  const rows: Array<[unknown, unknown, boolean]> = [
    ['500m', '0.5', true], ['1Gi', '1024Mi', true], ['1e3', '1k', true], ['1E3', '1000', true], ['2', 2, true],
    ['1.5Gi', '1536Mi', true], ['100u', '0.1m', true], ['1Ki', '1024', true], ['1M', '1000k', true],
    ['1Mi', '1M', false], ['0.1', '101m', false],
  ];
  for (const [a, b, equal] of rows) {
    it(`${String(a)} ${equal ? '=' : '≠'} ${String(b)}`, () => expect(quantitiesEqual(a, b)).toBe(equal));
  }
  it('text that is not a quantity is not parsed', () => {
    for (const text of ['abc', '1 Gi', '', 'Gi', '1.2.3']) expect(parseQuantity(text)).toBeUndefined();
  });
});
