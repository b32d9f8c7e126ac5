// Live state as both doors hand it to the pipeline: the App a stored snapshot, the CLI a snapshot
// file or plain objects (`kubectl get -o json`, YAML), which say nothing of their scope.
import type { KubeObject } from './object.js';
import type { ScopeError, ServedType } from './snapshot.js';

export interface LiveState {
  items: KubeObject[];
  /** The cluster the snapshot says it is of. */
  cluster?: string;
  /** The repository (`owner/name`) the snapshot says it is for: sources whose URL names it are in scope. */
  repository?: string;
  /** When the snapshot was taken; undefined for objects that are no snapshot. */
  capturedAt?: string;
  /** What the snapshot listed; undefined for objects that are no snapshot. */
  scope?: { namespaces?: string[]; complete: boolean; errors: ScopeError[] };
  /** The API server's discovery, when the snapshot records it: which kinds are namespaced. */
  server?: { gitVersion?: string; resources?: readonly ServedType[] };
}
