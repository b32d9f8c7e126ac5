// An object two Argo CD Applications render (Argo CD's SharedResourceWarning, controller/state.go): each
// sync writes its own rendering and tracking id, taking the object over from the other, so neither
// Application's files are the object's desired state. Its live state is compared against each
// Application's rendering; every difference is reported with both Applications named and never
// codified — codifying it into one Application's files would leave the other's sync to revert it.
import { compileIgnoreRules, ignoreRuleFor, summarize } from '../classify/index.js';
import { diffObject } from '../diff/index.js';
import { fieldPath } from '../k8s/index.js';
import {
  groupOf,
  keyId,
  keyOf,
  versionOf,
  type DiffResult,
  type FieldChange,
  type KubeObject,
  type ResourceDiff,
} from '../model/index.js';
import type { SourceNote } from '../render/types.js';
import { defaultConfig, type Config } from '../config/index.js';

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

/**
 * The fields live differs in from one Application's rendering, in words: the drift comparison, with the
 * config's ignore rules (an Application's `ignoreDifferences` included) applied.
 */
function differingFields(desired: KubeObject, live: KubeObject, config: Config): string[] {
  const key = keyOf(live);
  const matchers = compileIgnoreRules(config.drift.ignore);
  const of = {
    group: groupOf(live.apiVersion ?? ''),
    kind: live.kind ?? '',
    version: versionOf(live.apiVersion ?? ''),
  };
  return diffObject(desired, live, { config })
    .changes.filter((change: FieldChange) => !ignoreRuleFor(matchers, key, change, desired))
    .map((change) => fieldPath(change.segments, { ...of, object: live }) || change.path);
}

function namedFields(fields: readonly string[]): string {
  if (fields.length === 0) return 'nothing: it renders the object as live has it';
  const more = fields.length > NAMED ? ` and ${fields.length - NAMED} more` : '';
  return `${fields
    .slice(0, NAMED)
    .map((field) => `\`${field}\``)
    .join(', ')}${more}`;
}

/**
 * Live against each Application's rendering (`first`: the first Application's, the object's desired
 * state), compared alike for every one: the drift report and the plan name the same fields.
 */
export function comparedWithEach(claim: Claim, first: KubeObject, live: KubeObject, config = defaultConfig()): string {
  const renderings = [{ application: claim.applications[0]!, desired: first }, ...claim.others];
  return renderings
    .map(({ application, desired }) => `against ${application}: ${namedFields(differingFields(desired, live, config))}`)
    .join('; ');
}

/** The reason every difference of a shared object is reported: both Applications, and each one's comparison. */
function sharedReason(claim: Claim, first: KubeObject, live: KubeObject, config?: Config): string {
  return (
    `claimed by Argo CD Applications ${claim.applications.join(' and ')}: each sync takes it over from the other ` +
    `(SharedResourceWarning), so neither Application's files are its desired state. ` +
    `Compared ${comparedWithEach(claim, first, live, config)}. Never codified: keep the object in one Application only`
  );
}

function setAside(resource: ResourceDiff, claim: Claim, config?: Config): ResourceDiff {
  if (resource.changes.length === 0 || !resource.live || !resource.desired) return resource;
  const reason = sharedReason(claim, resource.desired.object, resource.live, config);
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
