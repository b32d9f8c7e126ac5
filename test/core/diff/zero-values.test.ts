// Git and live compared as the API server round-trips them: a built-in object is decoded into its Go
// type and encoded again, so a zero of a non-pointer `omitempty` field written in Git is absent live.
// Manifests from upstream: the NodeLocal DNSCache add-on (`readOnly: false` on a volumeMount) and the
// Kubernetes docs' second-scheduler example (`hostNetwork: false`, `hostPID: false`, and the pointer
// `privileged: false`, which the server keeps).
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { diffObject } from '../../../src/core/diff/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { readFixture } from '../../support/fixtures.js';
import { clone, configWith, managed } from './support.js';

function manifest(path: string, kind: string): KubeObject {
  const docs = parseAllDocuments(readFixture('manifests', ...path.split('/')));
  return docs.map((doc) => doc.toJS() as KubeObject).find((object) => object?.kind === kind)!;
}

/** Removes the fields the API server's encoding drops from a copy, at the given pointers. */
function asServed(object: KubeObject, drop: Array<readonly (string | number)[]>): KubeObject {
  const live = clone(object);
  for (const path of drop) {
    let node: any = live;
    for (const step of path.slice(0, -1)) node = node[step];
    delete node[path.at(-1)!];
  }
  return live;
}

/** Flux applied the manifest (server-side apply owns what it applied, a dropped zero included). */
function appliedByFlux(live: KubeObject, fieldsV1: Record<string, unknown>): KubeObject {
  return {
    ...live,
    metadata: { ...live.metadata, managedFields: [managed('kustomize-controller', fieldsV1, 'Apply')] as never },
  };
}

describe('a zero the API server drops equals its absence', () => {
  const nodeLocalDns = 'kubernetes/cluster/addons/dns/nodelocaldns/nodelocaldns.yaml';

  it('NodeLocal DNSCache: `readOnly: false` on a volumeMount is no drift', () => {
    const desired = manifest(nodeLocalDns, 'DaemonSet');
    const mount = ['spec', 'template', 'spec', 'containers', 0, 'volumeMounts', 0, 'readOnly'] as const;
    const live = appliedByFlux(asServed(desired, [mount]), {
      'f:spec': {
        'f:template': {
          'f:spec': {
            'f:containers': {
              'k:{"name":"node-cache"}': {
                'f:volumeMounts': { 'k:{"mountPath":"/run/xtables.lock"}': { 'f:readOnly': {} } },
              },
            },
          },
        },
      },
    });
    expect(diffObject(desired, live, { config: configWith() }).changes).toEqual([]);
  });

  it('second scheduler: `hostNetwork: false` and `hostPID: false` are no drift', () => {
    const desired = manifest('kubernetes-website/content/en/examples/admin/sched/my-scheduler.yaml', 'Deployment');
    const podSpec = ['spec', 'template', 'spec'] as const;
    const live = asServed(desired, [
      [...podSpec, 'hostNetwork'],
      [...podSpec, 'hostPID'],
    ]);
    expect(diffObject(desired, live, { config: configWith() }).changes).toEqual([]);
  });

  it('but `privileged: false` is a pointer the server keeps: removed live, it is drift', () => {
    const desired = manifest('kubernetes-website/content/en/examples/admin/sched/my-scheduler.yaml', 'Deployment');
    const podSpec = ['spec', 'template', 'spec'] as const;
    const live = asServed(desired, [
      [...podSpec, 'hostNetwork'],
      [...podSpec, 'hostPID'],
      [...podSpec, 'containers', 0, 'securityContext', 'privileged'],
    ]);
    const { changes } = diffObject(desired, live, { config: configWith() });
    expect(changes).toEqual([
      expect.objectContaining({
        path: '/spec/template/spec/containers/0/securityContext',
        op: 'replace',
        desired: { privileged: false },
      }),
    ]);
  });

  it('a zero in Git against a value live is still a change', () => {
    const desired = manifest(nodeLocalDns, 'DaemonSet');
    const live = clone(desired);
    (live.spec as any).template.spec.containers[0].volumeMounts[0].readOnly = true;
    const { changes } = diffObject(desired, live, { config: configWith() });
    expect(changes).toEqual([
      expect.objectContaining({
        path: '/spec/template/spec/containers/0/volumeMounts/0/readOnly',
        desired: false,
        live: true,
      }),
    ]);
  });
});
