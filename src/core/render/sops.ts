// SOPS-encrypted manifests, which kustomize-controller decrypts before substitution when the
// Kustomization sets `spec.decryption.provider: sops` (internal/decryptor): the top-level `sops:` block is
// SOPS's metadata, not part of the object, and each `ENC[…]` value is ciphertext. driftback never
// decrypts: an encrypted value is shown as `‹encrypted in Git (SOPS)›` on both sides (never compared,
// never printed, never codified), while the object's other fields (metadata, type, the set of keys)
// are compared as usual. A hand change to its values is reported by the manager and time managedFields give.
// The same holds for every source, whoever decrypts: an Argo CD plugin (KSOPS, helm-secrets), a person's
// `sops -d | kubectl apply`, or nobody (a Kustomization without spec.decryption) — the report says which.
import {
  escapeSegment,
  isPlainObject,
  keyId,
  keyOf,
  showTime,
  type DesiredObject,
  type KubeObject,
} from '../model/index.js';
import type { SourceNote } from './types.js';

export const SOPS_MASK = '‹encrypted in Git (SOPS)›';

const CIPHERTEXT = /^ENC\[[A-Za-z0-9_]+,data:/;

/** Whether the object carries SOPS metadata (`sops.mac` and friends). */
function isSopsEncrypted(object: KubeObject): boolean {
  const sops = (object as Record<string, unknown>).sops;
  return isPlainObject(sops) && ('mac' in sops || 'lastmodified' in sops || 'version' in sops);
}

/**
 * Takes the SOPS metadata out of the object and masks its encrypted values (the live object is
 * masked at the same places). Returns what a report says of it, or undefined when it is not encrypted.
 */
function maskSops(
  desired: DesiredObject,
  live: KubeObject | undefined,
  reason: string | undefined,
): string | undefined {
  if (!isSopsEncrypted(desired.object)) return undefined;
  delete (desired.object as Record<string, unknown>).sops;
  desired.source.sopsEncrypted = true;
  for (const pointer of Object.keys(desired.source.fields))
    if (pointer === '/sops' || pointer.startsWith('/sops/')) delete desired.source.fields[pointer];
  const walk = (node: unknown, pointer: string): unknown => {
    if (typeof node === 'string' && CIPHERTEXT.test(node)) {
      desired.source.secretFields = { ...desired.source.secretFields, [pointer]: SOPS_MASK };
      return SOPS_MASK;
    }
    if (Array.isArray(node)) return node.map((item, index) => walk(item, `${pointer}/${index}`));
    if (isPlainObject(node))
      for (const key of Object.keys(node)) node[key] = walk(node[key], `${pointer}/${escapeSegment(key)}`);
    return node;
  };
  walk(desired.object, '');
  const writer = lastValueWriter(live);
  const hand = writer ? `; its values were last written by ${writer}` : '';
  return `encrypted in Git (SOPS): values not compared${hand}${reason ? ` (${reason})` : ''}`;
}

/** Why the values in Git are not what the controller applies, per source kind; undefined when it decrypts them. */
export const SOPS_REASONS = {
  fluxWithoutDecryption:
    'the Kustomization sets no spec.decryption: kustomize-controller applies the ciphertext as-is, or the apply fails',
  argocd: 'decrypted by a plugin driftback does not run',
  kubectl: 'decrypted by a tool driftback does not run (sops --decrypt before kubectl apply)',
} as const;

/** Masks every SOPS-encrypted object of a render in place; one `not-checkable` note per object. */
export function maskEncrypted(
  objects: readonly DesiredObject[],
  live: readonly KubeObject[],
  source: string,
  reason: string | undefined,
): SourceNote[] {
  if (!objects.some((desired) => isSopsEncrypted(desired.object))) return [];
  const liveByKey = new Map(live.map((obj) => [keyId(keyOf(obj)), obj]));
  return objects.flatMap((desired) => {
    const message = maskSops(desired, liveByKey.get(keyId(desired.key)), reason);
    return message ? [{ code: 'not-checkable' as const, source, key: desired.key, message }] : [];
  });
}

/** `kubectl-edit (Update) at 2026-12-01 10:00 UTC`: the newest writer of the values, when not Flux itself. */
function lastValueWriter(live: KubeObject | undefined): string | undefined {
  const entries = (live?.metadata?.managedFields ?? []).filter((entry) => {
    const fields = isPlainObject(entry.fieldsV1) ? entry.fieldsV1 : {};
    return 'f:data' in fields || 'f:stringData' in fields;
  });
  const newest = entries.sort((a, b) => String(b.time ?? '').localeCompare(String(a.time ?? '')))[0];
  if (!newest || (newest.manager ?? '').startsWith('kustomize-controller')) return undefined;
  return `${newest.manager ?? 'an unnamed manager'} (${newest.operation ?? 'Update'})${newest.time ? ` at ${showTime(newest.time)}` : ''}`;
}
