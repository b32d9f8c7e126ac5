// Fingerprints of drift for decisions: a field change is key + path + live value (the gate's own
// fingerprint), a whole resource (extra or missing) is its key and, for extra, the live object's
// uid — the persistence gate's own identities (core/classify/gate.ts), so a decision matches an
// observation.
import { fingerprintChange, summarize, wholeResourceChange } from '../classify/index.js';
import type { DiffResult, ResourceDiff } from '../model/index.js';
import { keyId } from '../model/index.js';
import type { CodifiedChange } from '../codify/index.js';

export function resourceFingerprint(resource: ResourceDiff): string | undefined {
  const whole = wholeResourceChange(resource);
  return whole ? fingerprintChange(resource.key, whole) : undefined;
}

/** The result without the changes a human declined; returns how many were dropped. */
export function dropDeclined(
  result: DiffResult,
  declined: ReadonlySet<string>,
): { result: DiffResult; dropped: number } {
  if (declined.size === 0) return { result, dropped: 0 };
  let dropped = 0;
  const resources: ResourceDiff[] = [];
  for (const resource of result.resources) {
    const whole = resourceFingerprint(resource);
    if (whole !== undefined) {
      if (declined.has(whole)) dropped++;
      else resources.push(resource);
      continue;
    }
    const changes = resource.changes.filter((change) => !declined.has(fingerprintChange(resource.key, change)));
    dropped += resource.changes.length - changes.length;
    const status = resource.status === 'modified' && changes.length === 0 ? 'in-sync' : resource.status;
    resources.push({ ...resource, changes, status });
  }
  return { result: { ...result, resources, summary: summarize(resources) }, dropped };
}

/** Fingerprints of what a drift PR codifies (what closing it unmerged declines). */
export function codifiedFingerprints(result: DiffResult, codified: readonly CodifiedChange[]): string[] {
  const byKey = new Map(result.resources.map((resource) => [keyId(resource.key), resource]));
  const prints = new Set<string>();
  for (const entry of codified) {
    if (entry.change) prints.add(fingerprintChange(entry.key, entry.change));
    else {
      const resource = byKey.get(keyId(entry.key));
      const whole = resource && resourceFingerprint(resource);
      if (whole) prints.add(whole);
    }
  }
  return [...prints].sort();
}
