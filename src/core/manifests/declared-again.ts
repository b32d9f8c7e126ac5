// One object declared twice in plain manifests (a directory `kubectl apply -f` or an Argo CD directory
// source applies): kustomize refuses it ("may not add resource with an already registered id"), but
// kubectl applies each declaration in turn and Argo CD warns "appeared 2 times among application
// resources" and keeps the last. Either way the cluster holds one object, the last declaration's: it is
// compared once, and each earlier declaration is listed as not compared, naming the one that wins.
import { displayKey, keyId, type DesiredObject, type SkippedDocument } from '../model/index.js';

function place(desired: DesiredObject): string {
  const line = desired.source.location?.line;
  return line ? `${desired.source.file}:${line}` : desired.source.file;
}

/** The objects with each id once (the last declaration), and the earlier declarations, not compared. */
export function lastDeclarationWins(objects: readonly DesiredObject[]): {
  objects: DesiredObject[];
  skipped: SkippedDocument[];
} {
  const last = new Map<string, DesiredObject>();
  for (const desired of objects) last.set(keyId(desired.key), desired);
  if (last.size === objects.length) return { objects: [...objects], skipped: [] };
  const skipped: SkippedDocument[] = [];
  const kept = objects.filter((desired) => {
    const winner = last.get(keyId(desired.key))!;
    if (winner === desired) return true;
    const reason = `${displayKey(desired.key)} is declared again at ${place(winner)}: the last declaration is the one applied (kubectl apply; Argo CD keeps the last), so ${place(desired)} is not compared`;
    skipped.push({ file: desired.source.file, document: desired.source.document, reason, code: 'declared-again' });
    return false;
  });
  return { objects: kept, skipped };
}
