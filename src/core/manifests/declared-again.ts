// One object declared twice in plain manifests (a directory `kubectl apply -f` or an Argo CD directory
// source applies): kustomize refuses it ("may not add resource with an already registered id"), but
// kubectl applies each declaration in turn and Argo CD warns "appeared 2 times among application
// resources" and keeps the last. Either way the cluster holds one object, the last declaration's: it is
// compared once, and each earlier declaration is listed as not compared, naming the one that wins.
import { displayKey, keyId, type DeclaredAgain, type DesiredObject, type SkippedDocument } from '../model/index.js';

function place(desired: DesiredObject): string {
  const line = desired.source.location?.line;
  return line ? `${desired.source.file}:${line}` : desired.source.file;
}

/** Why a declaration is not compared; `shown` maps each place to the root the message names files from. */
export function declaredAgainReason(again: DeclaredAgain, shown: (place: string) => string = (place) => place): string {
  return (
    `${again.object} is declared again at ${shown(again.last)}: the last declaration is the one applied ` +
    `(kubectl apply; Argo CD keeps the last), so ${shown(again.here)} is not compared`
  );
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
    const declaredAgain = { object: displayKey(desired.key), here: place(desired), last: place(winner) };
    skipped.push({
      file: desired.source.file,
      document: desired.source.document,
      reason: declaredAgainReason(declaredAgain),
      code: 'declared-again',
      declaredAgain,
    });
    return false;
  });
  return { objects: kept, skipped };
}
