// The App's storage: one interface, two implementations (SQLite by default, PostgreSQL when
// DATABASE_URL is set), both run against the same test suite.
import type { Snapshot } from '../core/model/index.js';
import type { StateKey, StateKind, StateOf } from './state/index.js';

/**
 * Where a store's database is (never a handle to it): the job queue opens its own connection there,
 * so its jobs are kept beside the snapshots.
 */
export type StoreBackend =
  { type: 'sqlite'; file: string } | { type: 'postgres'; connectionString: string; schema: string };

export interface StoredSnapshotMeta {
  id: string;
  repository: string;
  cluster: string;
  capturedAt: string;
  receivedAt: string;
  digest: string;
  items: number;
  /** Size of the stored (compressed) document in bytes. */
  bytes: number;
}

export type PutSnapshotResult =
  | { type: 'stored'; meta: StoredSnapshotMeta }
  /** The same digest was uploaded before: the same snapshot, the same id. */
  | { type: 'duplicate'; meta: StoredSnapshotMeta }
  /** capturedAt is older than the newest stored snapshot: kept out of the latest state. */
  | { type: 'stale'; meta: StoredSnapshotMeta; latest: StoredSnapshotMeta };

export interface Decision {
  repository: string;
  cluster: string;
  /** Change fingerprints (key + path + live value hash) a human declined by closing a drift PR unmerged. */
  fingerprint: string;
  pullRequest: number;
  decidedAt: string;
}

/** What a person decided on one drift item with a PR comment command. */
export type ItemAction = 'ignore' | 'allow';

export interface ItemDecision {
  repository: string;
  cluster: string;
  /** The item's fingerprint (key + path + live value hash): a new live value needs a new decision. */
  fingerprint: string;
  /** `ignore`: not proposed again; `allow`: security-relevant drift that may be codified. */
  action: ItemAction;
  /** The object and field as people read them (`Deployment/shop/cart`, `spec.replicas`; '' = the whole object). */
  object: string;
  field: string;
  reason: string;
  /** The GitHub login that decided. */
  by: string;
  decidedAt: string;
  pullRequest: number;
  commentId: number;
}

/** A PR comment command received: handled once per comment. */
export interface CommandClaim {
  repository: string;
  commentId: number;
  pullRequest: number;
  /** When it was received, ms since the epoch. */
  receivedMs: number;
}

export interface Store {
  /** The database behind the store (absent in test doubles). */
  readonly backend?: StoreBackend;
  /** Stores durably (compressed); the newest by capturedAt is the latest; keeps the last `retain` per cluster. */
  putSnapshot(
    snapshot: Snapshot,
    options: { digest: string; receivedAt: string; compressed?: Buffer },
  ): Promise<PutSnapshotResult>;
  getSnapshot(id: string): Promise<{ meta: StoredSnapshotMeta; snapshot: Snapshot } | undefined>;
  latestSnapshot(
    repository: string,
    cluster: string,
  ): Promise<{ meta: StoredSnapshotMeta; snapshot: Snapshot } | undefined>;
  latestSnapshotMeta(repository: string, cluster: string): Promise<StoredSnapshotMeta | undefined>;
  /** Every (repository, cluster) with at least one snapshot, newest first. */
  listClusters(): Promise<StoredSnapshotMeta[]>;

  /** Persistence gate input: the fingerprints seen in one snapshot (idempotent per snapshot id). */
  recordObservations(
    repository: string,
    cluster: string,
    snapshotId: string,
    capturedAt: string,
    fingerprints: string[],
  ): Promise<void>;
  /** The fingerprint sets of the last `limit` observed snapshots, newest first. */
  observationHistory(
    repository: string,
    cluster: string,
    limit: number,
  ): Promise<Array<{ snapshotId: string; capturedAt: string; fingerprints: Set<string> }>>;

  recordDecisions(decisions: Decision[]): Promise<void>;
  declinedFingerprints(repository: string, cluster: string): Promise<Set<string>>;

  /** Records people's decisions on single items; a later decision on the same item replaces the earlier one. */
  recordItemDecisions(decisions: ItemDecision[]): Promise<void>;
  /** The decisions on one cluster's items, oldest first. */
  itemDecisions(repository: string, cluster: string): Promise<ItemDecision[]>;
  /**
   * Claims a comment's command: true the first time, false when that comment was handled before
   * (an edit, a redelivery). `repository` is compared as given (callers pass it lower-cased).
   */
  claimCommand(claim: CommandClaim): Promise<boolean>;
  /** Commands claimed on one pull request since `sinceMs` (the per-PR rate limit). */
  commandsSince(repository: string, pullRequest: number, sinceMs: number): Promise<number>;
  /** Drops command claims received before `beforeMs`; returns how many. */
  forgetCommands(beforeMs: number): Promise<number>;

  /** git blob sha → text; blobs are immutable, so entries never go stale. */
  getBlobs(shas: string[]): Promise<Map<string, string>>;
  /** Caches blobs, last used at `usedAt` (ms since the epoch). */
  putBlobs(blobs: Map<string, string>, usedAt: number): Promise<void>;
  /** Marks cached blobs as used at `usedAt` (rows touched within the last hour are left as they are). */
  touchBlobs(shas: string[], usedAt: number): Promise<void>;
  /** Drops blobs last used before `unusedSince`; returns how many. */
  evictBlobs(unusedSince: number): Promise<number>;

  /**
   * Small typed state per cluster, per repository and of the watch (src/store/state: schemas and
   * versions): parsed on read, brought to the current version first; throws StateInvalidError when a
   * row does not parse.
   */
  getState<K extends StateKind>(key: StateKey & { kind: K }): Promise<StateOf[K] | undefined>;
  /** Checked against the schema, written at the current version. */
  setState<K extends StateKind>(key: StateKey & { kind: K }, state: StateOf[K]): Promise<void>;

  /** Cheap liveness check of the database. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
