// SOPS-encrypted manifests, which kustomize-controller decrypts before substitution when the
// Kustomization sets `spec.decryption.provider: sops` (internal/decryptor): the top-level `sops:` block is
// SOPS's metadata, not part of the object, and each `ENC[…]` value is ciphertext. driftback never
// decrypts: an encrypted value is shown as `‹encrypted in Git (SOPS)›` on both sides (never compared,
// never printed, never codified), while the object's other fields (metadata, type, the set of keys)
// are compared as usual. A hand change to its values is reported by the manager and time managedFields give.
import { escapeSegment, isPlainObject, showTime, type DesiredObject, type KubeObject } from '../model/index.js';

export const SOPS_MASK = '‹encrypted in Git (SOPS)›';

const CIPHERTEXT = /^ENC\[[A-Za-z0-9_]+,data:/;

/** Whether the object carries SOPS metadata (`sops.mac` and friends). */
export function isSopsEncrypted(object: KubeObject): boolean {
  const sops = (object as Record<string, unknown>).sops;
  return isPlainObject(sops) && ('mac' in sops || 'lastmodified' in sops || 'version' in sops);
}

/**
 * Takes the SOPS metadata out of the object and masks its encrypted values (the live object is
 * masked at the same places). Returns what a report says of it, or undefined when it is not encrypted.
 */
export function maskSops(desired: DesiredObject, live: KubeObject | undefined, decrypts: boolean): string | undefined {
  if (!isSopsEncrypted(desired.object)) return undefined;
  delete (desired.object as Record<string, unknown>).sops;
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
  const missing = decrypts ? '' : ' (the Kustomization sets no spec.decryption: Flux cannot apply it)';
  return `encrypted in Git (SOPS): values not compared${hand}${missing}`;
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
