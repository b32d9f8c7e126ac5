// Whether a snapshot brings anything new: a digest of what a person, Git or a controller's spec
// writes, over every object of the snapshot. Capture times, resource versions, managedFields and
// status are left out, and so are the kinds that change on every look whatever anyone does
// (leader-election Leases, Events, Endpoints and EndpointSlices): two snapshots of a quiet cluster
// digest equal, and a hand change to any other object makes the digest differ.
import { createHash } from 'node:crypto';
import { withoutServerState } from '../k8s/index.js';
import type { KubeObject } from '../model/index.js';
import { stableJson } from './gate.js';

const CHURNING_KINDS = new Set(['Lease', 'Event', 'Endpoints', 'EndpointSlice']);

export function liveStateDigest(items: readonly KubeObject[]): string {
  const rows = items
    .filter((item) => !CHURNING_KINDS.has(String(item.kind)))
    .map((item) => stableJson(withoutServerState(item)))
    .sort();
  const hash = createHash('sha256');
  for (const row of rows) hash.update(row).update('\n');
  return hash.digest('hex');
}
