// kustomize's `replicas`: sets spec.replicas of the named workloads (matched by any name they had).
import type { FieldSource } from '../model/index.js';
import { kindOf, type BuildResource } from './resource.js';
import { ensureMap, setScalar } from './tracked.js';

const SCALABLE: ReadonlySet<string> = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);

export interface ReplicaRule {
  name: string;
  count: number;
  source: FieldSource;
}

/** Returns the rules that matched nothing, so the caller can report them. */
export function applyReplicas(resources: BuildResource[], rules: readonly ReplicaRule[]): ReplicaRule[] {
  const unmatched: ReplicaRule[] = [];
  for (const rule of rules) {
    let matched = false;
    for (const resource of resources) {
      if (!SCALABLE.has(kindOf(resource)) || !resource.names.includes(rule.name)) continue;
      const spec = ensureMap(resource.root, ['spec'], rule.source);
      if (!spec) continue;
      setScalar(spec, 'replicas', rule.count, rule.source);
      matched = true;
    }
    if (!matched) unmatched.push(rule);
  }
  return unmatched;
}
