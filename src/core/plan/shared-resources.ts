// An object two Argo CD Applications render (Argo CD's SharedResourceWarning, controller/state.go): each
// sync writes its own rendering and tracking id, taking the object over from the other, so neither
// Application's files are the object's desired state. Its live state is compared against each
// Application's rendering; every difference is reported with both Applications named and never
// codified — codifying it into one Application's files would leave the other's sync to revert it.
import { summarize } from '../classify/index.js';
import { diffObject } from '../diff/index.js';
import { fieldPath } from '../k8s/index.js';
import {
  groupOf,
  keyId,
  versionOf,
  type DiffResult,
  type FieldChange,
  type KubeObject,
  type ResourceDiff,
} from '../model/index.js';
import type { SourceNote } from '../render/types.js';
import type { Config } from '../config/index.js';

/** At most this many fields are named per Application. */
const NAMED = 5;

interface Claim {
  /** Every Application that renders the object, the first to render it first. */
  applications: string[];
  /** The other Applications' renderings, by Application. */
  others: Array<{ application: string; desired: KubeObject }>;
}

/** The Applications that claim each object, from the render's `shared-resource` notes. */
export function sharedClaims(notes: readonly SourceNote[]): Map<string, Claim> {
  const claims = new Map<string, Claim>();
  for (const note of notes) {
    if (note.code !== 'shared-resource' || !note.key || !note.shared) continue;
    const id = keyId(note.key);
    const claim = claims.get(id) ?? { applications: [note.shared.first], others: [] };
    if (!claim.applications.includes(note.source)) claim.applications.push(note.source);
    claim.others.push({ application: note.source, desired: note.shared.desired.object });
    claims.set(id, claim);
  }
  return claims;
}

/** The fields another Application's sync would write differently from live, in words. */
export function otherRendering(desired: KubeObject, live: KubeObject, config?: Config): string[] {
  const { changes } = diffObject(desired, live, config ? { config } : {});
  const of = {
    group: groupOf(live.apiVersion ?? ''),
    kind: live.kind ?? '',
    version: versionOf(live.apiVersion ?? ''),
  };
  return changes.map((change) => fieldPath(change.segments, { ...of, object: live }) || change.path);
}

export function namedFields(fields: readonly string[]): string {
  if (fields.length === 0) return 'nothing: it renders the object as live has it';
  const more = fields.length > NAMED ? ` and ${fields.length - NAMED} more` : '';
  return `${fields
    .slice(0, NAMED)
    .map((field) => `\`${field}\``)
    .join(', ')}${more}`;
}

/** The reason every difference of a shared object is reported: both Applications, and each one's comparison. */
export function sharedReason(claim: Claim, firstFields: readonly string[], live: KubeObject, config?: Config): string {
  const [first] = claim.applications;
  const against = [
    `against ${first}: ${namedFields(firstFields)}`,
    ...claim.others.map(
      ({ application, desired }) => `against ${application}: ${namedFields(otherRendering(desired, live, config))}`,
    ),
  ];
  return (
    `claimed by Argo CD Applications ${claim.applications.join(' and ')}: each sync takes it over from the other ` +
    `(SharedResourceWarning), so neither Application's files are its desired state. Compared ${against.join('; ')}. ` +
    'Never codified: keep the object in one Application only'
  );
}

function setAside(resource: ResourceDiff, claim: Claim, config?: Config): ResourceDiff {
  if (resource.changes.length === 0 || !resource.live) return resource;
  const live = resource.live;
  const firstFields = resource.changes.map(
    (change) =>
      fieldPath(change.segments, { group: resource.key.group, kind: resource.key.kind, object: live }) || change.path,
  );
  const reason = sharedReason(claim, firstFields, live, config);
  const moved: FieldChange[] = resource.changes.map((change) => ({
    ...change,
    reported: { code: 'shared-resource', reason },
  }));
  const status = resource.status === 'modified' ? 'in-sync' : resource.status;
  return { ...resource, changes: [], status, reported: [...(resource.reported ?? []), ...moved] };
}

/** The diff with every change to an object two Argo CD Applications render moved to the reported changes. */
export function setSharedResourcesAside(diff: DiffResult, notes: readonly SourceNote[], config?: Config): DiffResult {
  const claims = sharedClaims(notes);
  if (claims.size === 0) return diff;
  const resources = diff.resources.map((resource) => {
    const claim = claims.get(keyId(resource.key));
    return claim ? setAside(resource, claim, config) : resource;
  });
  if (resources.every((resource, i) => resource === diff.resources[i])) return diff;
  return { ...diff, resources, summary: summarize(resources) };
}
