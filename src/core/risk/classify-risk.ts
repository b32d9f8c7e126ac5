// Security-relevant drift, a classification on top of cause: a live change (or an object made by hand)
// that escalates RBAC, pulls an image from a registry the repository never uses, grants a container
// privileges, or was made by a manager nobody knows. What the GitOps applier wrote is Git's, not drift
// of this kind; everything else is judged by what live holds that Git does not. Risky drift is never
// codified without an explicit decision (allow-risky.ts), whatever `drift.causes` says.
import type { Config } from '../config/index.js';
import { fieldPath, registryOf } from '../k8s/index.js';
import { compileConfigGlobs } from '../patterns/index.js';
import {
  isPlainObject,
  isUndecided,
  keyId,
  keyOf,
  type DesiredObject,
  type DiffResult,
  type FieldChange,
  type KubeObject,
  type OwnedObject,
  type ResourceDiff,
  type Risk,
  type RiskCode,
} from '../model/index.js';
import { fingerprintChange, wholeResourceChange } from '../classify/index.js';
import { riskAllower, type RiskAllower, type RiskDecisions } from './allow-risky.js';
import {
  findingsOf,
  rootFindings,
  touches,
  type Finding,
  type FindingOptions,
  type RegistryCheck,
} from './risk-findings.js';
import { roleLookup } from './rbac-findings.js';

export interface RiskInput {
  config: Config;
  /** The cluster's rendered manifests: the registries the repository uses, the roles Git declares. */
  desired: readonly DesiredObject[];
  /** The snapshot's objects: the roles bindings refer to, the objects of owners other than Git. */
  live: readonly KubeObject[];
  /** Decisions people made on single items. Default: none. */
  decisions?: RiskDecisions;
}

interface RiskContext {
  codes: ReadonlySet<RiskCode>;
  options: FindingOptions;
  allow: RiskAllower;
  live: ReadonlyMap<string, KubeObject>;
}

/** Registry hosts an object names: container images, and `image:` fields anywhere (Helm values, image policies). */
function registriesIn(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) registriesIn(item, into);
    return;
  }
  if (!isPlainObject(value)) return;
  const image = value.image;
  const host =
    typeof image === 'string'
      ? registryOf(image)
      : isPlainObject(image) && typeof image.registry === 'string'
        ? image.registry.toLowerCase()
        : isPlainObject(image) && typeof image.repository === 'string'
          ? registryOf(image.repository)
          : undefined;
  if (host) into.add(host);
  for (const child of Object.values(value)) registriesIn(child, into);
}

function registryCheck(config: Config, desired: readonly DesiredObject[]): RegistryCheck {
  const known = new Set<string>();
  for (const object of desired) registriesIn(object.object, known);
  // Globs compiled as RE2, as every pattern of the config (a glob RE2 refuses is reported by the config's parse).
  const configured = compileConfigGlobs(config.drift.trustedRegistries.map((pattern) => pattern.toLowerCase()));
  return { trusted: (host) => known.has(host) || configured.matches.test(host), known: [...known].sort() };
}

function contextOf(input: RiskInput): RiskContext {
  const codes = new Set(input.config.drift.risks);
  const roles = roleLookup(
    input.live,
    input.desired.map((object) => object.object),
  );
  return {
    codes,
    options: { codes, roles, registries: registryCheck(input.config, input.desired) },
    allow: riskAllower(input.config.drift.allowRisky, input.decisions),
    live: new Map(input.live.map((object) => [keyId(keyOf(object)), object])),
  };
}

function unknownManager(codes: ReadonlySet<RiskCode>, manager: string | undefined, verb: string): Risk[] {
  if (!codes.has('unknown-manager') || manager === undefined) return [];
  const why =
    `${verb} by ${manager}, a field manager that is neither a person's tool, a known controller, nor ` +
    "configured: a client nobody here knows (a script, an undeclared operator, someone else's credentials); " +
    'once known, name it in drift.humanManagers or drift.appliers';
  return [{ code: 'unknown-manager', why }];
}

/** Each risk once (two anchors of one finding, one setting found twice). */
function unique(risk: Risk[]): Risk[] {
  const seen = new Set<string>();
  return risk.filter((entry) => {
    const id = `${entry.code}\u0000${entry.why}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** The risks of one change: the findings it touches, and an unknown manager. */
function changeRisk(change: FieldChange, findings: readonly Finding[], context: RiskContext): Risk[] {
  const touched = findings.filter((finding) => finding.anchors.some((anchor) => touches(change.segments, anchor)));
  const unknown = change.cause === 'unknown' ? unknownManager(context.codes, change.manager, 'changed') : [];
  return unique([...touched.map(({ code, why }) => ({ code, why })), ...unknown]);
}

/** The write a change came from, as managedFields record it: one manager's entry, its operation and time. */
function writeOf(change: FieldChange): string | undefined {
  return change.manager === undefined
    ? undefined
    : `${change.manager}\u0000${change.operation ?? ''}\u0000${change.time ?? ''}`;
}

/**
 * Changes recorded in the same write as undecided risky drift (the volume mount of a hostPath volume
 * patched in together) are part of it: codifying them alone would write half of what was done. They
 * carry the write's codes, and wait with it.
 */
function withCompanions(key: ResourceDiff['key'], changes: FieldChange[], context: RiskContext): FieldChange[] {
  const risky = new Map<string, FieldChange>();
  for (const change of changes) {
    const write = writeOf(change);
    if (write && isUndecided(change.risk) && !risky.has(write)) risky.set(write, change);
  }
  if (risky.size === 0) return changes;
  return changes.map((change) => {
    const write = writeOf(change);
    const source = write ? risky.get(write) : undefined;
    if (!source || change.risk?.length || change.cause === 'applier' || change.op === 'remove') return change;
    const field = fieldPath(source.segments.length ? source.segments : source.path, key);
    const undecided = source.risk!.filter((entry) => !entry.allowed);
    const codes = [...new Set(undecided.map((entry) => entry.code))];
    // The risky change's own words, so that this row reads without it.
    const whys = [...new Set(undecided.map((entry) => entry.why))].join('; ');
    const why = `written by ${change.manager} in the same write as ${field} (${whys}): held for the same decision, so that Git never gets half of that write`;
    const risk = codes.map((code) => ({ code, why }));
    return { ...change, risk: context.allow(key, change, fingerprintChange(key, change), risk) };
  });
}

/** The changes with their risks, decisions applied; the list itself when none is risky. */
function judgeChanges(
  key: ResourceDiff['key'],
  changes: FieldChange[],
  findings: readonly Finding[],
  context: RiskContext,
): FieldChange[] {
  let touched = false;
  const judged = changes.map((change) => {
    // The applier applied Git: what it wrote (a value Git no longer declares, a webhook's mutation
    // of its own request) is not a person's or an intruder's change.
    if (change.cause === 'applier' || change.op === 'remove') return change;
    const risk = changeRisk(change, findings, context);
    if (risk.length === 0) return change;
    touched = true;
    return { ...change, risk: context.allow(key, change, fingerprintChange(key, change), risk) };
  });
  return touched ? withCompanions(key, judged, context) : changes;
}

function judgeModified(resource: ResourceDiff, context: RiskContext): ResourceDiff {
  const { live, desired } = resource;
  if (!live || !desired || resource.changes.length === 0) return resource;
  const { options } = context;
  const inGit = new Set(findingsOf(desired.object, { ...options, registries: undefined }).map((f) => f.id));
  const root = context.codes.has('privilege') ? rootFindings(live, desired.object) : [];
  const fresh = [...findingsOf(live, options), ...root].filter((finding) => !inGit.has(finding.id));
  const changes = judgeChanges(resource.key, resource.changes, fresh, context);
  return changes === resource.changes ? resource : { ...resource, changes };
}

function judgeExtra(resource: ResourceDiff, context: RiskContext): ResourceDiff {
  if (!resource.live) return resource;
  const found = findingsOf(resource.live, context.options).map(({ code, why }) => ({ code, why }));
  const creator = resource.createdBy;
  const unknown = creator?.cause === 'unknown' ? unknownManager(context.codes, creator.manager, 'created') : [];
  const risk = unique([...found, ...unknown]);
  if (risk.length === 0) return resource;
  const fingerprint = fingerprintChange(resource.key, wholeResourceChange(resource)!);
  return { ...resource, risk: context.allow(resource.key, undefined, fingerprint, risk) };
}

/**
 * An object Git does not declare and nothing codifies: a person's Pod is judged whole, hand changes on
 * another owner's object by the fields they touch. Images are not judged (nothing is written to Git).
 */
function judgeOwned(object: OwnedObject, context: RiskContext): OwnedObject {
  const live = context.live.get(keyId(object.key));
  if (!live) return object;
  const options = { ...context.options, registries: undefined };
  const findings = findingsOf(live, options);
  const changes = object.changes ? judgeChanges(object.key, object.changes, findings, context) : undefined;
  const whole = object.owner.class === 'person' ? findings.map(({ code, why }) => ({ code, why })) : [];
  const risk = whole.length ? context.allow(object.key, undefined, `owned:${keyId(object.key)}`, whole) : undefined;
  if (changes === object.changes && !risk) return object;
  return { ...object, ...(changes ? { changes } : {}), ...(risk ? { risk } : {}) };
}

/** The diff with `risk` on every change and object that is security-relevant drift. */
export function classifyRisk(result: DiffResult, input: RiskInput): DiffResult {
  if (input.config.drift.risks.length === 0) return result;
  const context = contextOf(input);
  const resources = result.resources.map((resource) =>
    resource.status === 'modified'
      ? judgeModified(resource, context)
      : resource.status === 'extra'
        ? judgeExtra(resource, context)
        : resource,
  );
  const owned = result.owned?.map((object) => judgeOwned(object, context));
  return { ...result, resources, ...(owned ? { owned } : {}) };
}
