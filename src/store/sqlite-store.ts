// The default store: one SQLite file (better-sqlite3, WAL) in DATA_DIR. Calls are synchronous under
// the hood; the async interface matches the PostgreSQL store so callers never know which it is.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Snapshot } from '../core/model/index.js';
import { StoreUnavailableError } from './errors.js';
import { DEFAULT_RETAIN, MIGRATIONS, OBSERVATIONS_KEPT } from './migrations.js';
import {
  ITEM_DECISION_COLUMNS,
  ITEM_DECISION_UPSERT,
  itemDecisionFromRow,
  itemDecisionValues,
  metaFromRow,
  putOutcome,
  SNAPSHOT_INSERT_COLUMNS,
  SNAPSHOT_META_COLUMNS,
  snapshotInsert,
  snapshotInsertValues,
  type ItemDecisionRow,
  type SnapshotMetaRow,
} from './rows.js';
import { decompressSnapshot, instantOf } from './snapshot-codec.js';
import {
  decodeState,
  encodeState,
  stateRow,
  STATE_VERSION,
  type StateKey,
  type StateKind,
  type StateOf,
} from './state/index.js';
import type { CommandClaim, Decision, ItemDecision, PutSnapshotResult, Store, StoredSnapshotMeta } from './types.js';

export interface SqliteStoreOptions {
  /** Path of the database file; `:memory:` for a throwaway store. */
  file: string;
  /** Snapshots kept per (repository, cluster). Default 10. */
  retain?: number;
}

// SQLite allows 32,766 bound parameters; stay far below it.
const BATCH = 500;
/** A blob's last use is recorded at most this often (a read does not write every time). */
const TOUCH_EVERY_MS = 60 * 60 * 1000;

export class SqliteStore implements Store {
  readonly backend;
  private readonly retain: number;

  private constructor(
    private readonly db: Database.Database,
    file: string,
    retain: number,
  ) {
    this.retain = retain;
    this.backend = { type: 'sqlite', file } as const;
  }

  static open(options: SqliteStoreOptions): SqliteStore {
    let db: Database.Database;
    try {
      if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true });
      db = new Database(options.file);
      db.pragma('journal_mode = WAL');
      // NORMAL in WAL mode survives a process crash; putSnapshot raises it to FULL for its own
      // commit, so an acknowledged upload also survives a power cut. Queue and cache writes, which
      // are many and cheap to redo, do not pay an fsync each.
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      migrateSqlite(db);
    } catch (error) {
      throw new StoreUnavailableError('sqlite', new Error(`cannot open ${options.file}: ${(error as Error).message}`));
    }
    return new SqliteStore(db, options.file, options.retain ?? DEFAULT_RETAIN);
  }

  async putSnapshot(
    snapshot: Snapshot,
    options: { digest: string; receivedAt: string; compressed?: Buffer },
  ): Promise<PutSnapshotResult> {
    const { repository, cluster } = snapshot;
    const insert = await snapshotInsert(snapshot, options);
    const write = this.db.transaction((): PutSnapshotResult => {
      const existing = this.db
        .prepare(`SELECT ${SNAPSHOT_META_COLUMNS} FROM snapshots WHERE id = ?`)
        .get(insert.meta.id) as SnapshotMetaRow | undefined;
      if (existing) return { type: 'duplicate', meta: metaFromRow(existing) };
      const { stale, result } = putOutcome(insert, this.latestRow(repository, cluster));
      this.db
        .prepare(`INSERT INTO snapshots (${SNAPSHOT_INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(...snapshotInsertValues(insert, stale ? 1 : 0));
      this.db
        .prepare(
          `DELETE FROM snapshots WHERE repository = ? AND cluster = ? AND seq NOT IN (
             SELECT seq FROM snapshots WHERE repository = ? AND cluster = ? ORDER BY captured_ms DESC, seq DESC LIMIT ?)`,
        )
        .run(repository, cluster, repository, cluster, this.retain);
      return result;
    });
    this.db.pragma('synchronous = FULL');
    try {
      return write.immediate();
    } finally {
      this.db.pragma('synchronous = NORMAL');
    }
  }

  async getSnapshot(id: string): Promise<{ meta: StoredSnapshotMeta; snapshot: Snapshot } | undefined> {
    const row = this.db.prepare(`SELECT ${SNAPSHOT_META_COLUMNS}, body FROM snapshots WHERE id = ?`).get(id) as
      (SnapshotMetaRow & { body: Buffer }) | undefined;
    if (!row) return undefined;
    return { meta: metaFromRow(row), snapshot: await decompressSnapshot(row.body) };
  }

  async latestSnapshot(
    repository: string,
    cluster: string,
  ): Promise<{ meta: StoredSnapshotMeta; snapshot: Snapshot } | undefined> {
    const row = this.latestRow(repository, cluster);
    return row ? this.getSnapshot(row.id) : undefined;
  }

  async latestSnapshotMeta(repository: string, cluster: string): Promise<StoredSnapshotMeta | undefined> {
    const row = this.latestRow(repository, cluster);
    return row ? metaFromRow(row) : undefined;
  }

  async listClusters(): Promise<StoredSnapshotMeta[]> {
    const rows = this.db
      .prepare(
        `SELECT ${SNAPSHOT_META_COLUMNS} FROM (
           SELECT *, ROW_NUMBER() OVER (PARTITION BY repository, cluster ORDER BY captured_ms DESC, seq DESC) AS rank
           FROM snapshots WHERE stale = 0) WHERE rank = 1 ORDER BY captured_ms DESC, seq DESC`,
      )
      .all() as SnapshotMetaRow[];
    return rows.map(metaFromRow);
  }

  async recordObservations(
    repository: string,
    cluster: string,
    snapshotId: string,
    capturedAt: string,
    fingerprints: string[],
  ): Promise<void> {
    const record = this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO observations (repository, cluster, snapshot_id, captured_at, captured_ms, fingerprints) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (repository, cluster, snapshot_id) DO UPDATE SET fingerprints = excluded.fingerprints`,
        )
        .run(
          repository,
          cluster,
          snapshotId,
          capturedAt,
          instantOf(capturedAt),
          JSON.stringify([...new Set(fingerprints)].sort()),
        );
      this.db
        .prepare(
          `DELETE FROM observations WHERE repository = ? AND cluster = ? AND snapshot_id NOT IN (
             SELECT snapshot_id FROM observations WHERE repository = ? AND cluster = ? ORDER BY captured_ms DESC LIMIT ?)`,
        )
        .run(repository, cluster, repository, cluster, OBSERVATIONS_KEPT);
    });
    record.immediate();
  }

  async observationHistory(
    repository: string,
    cluster: string,
    limit: number,
  ): Promise<Array<{ snapshotId: string; capturedAt: string; fingerprints: Set<string> }>> {
    const rows = this.db
      .prepare(
        'SELECT snapshot_id, captured_at, fingerprints FROM observations WHERE repository = ? AND cluster = ? ORDER BY captured_ms DESC LIMIT ?',
      )
      .all(repository, cluster, limit) as Array<{ snapshot_id: string; captured_at: string; fingerprints: string }>;
    return rows.map((row) => ({
      snapshotId: row.snapshot_id,
      capturedAt: row.captured_at,
      fingerprints: new Set(JSON.parse(row.fingerprints) as string[]),
    }));
  }

  async recordDecisions(decisions: Decision[]): Promise<void> {
    const insert = this.db.prepare(
      `INSERT INTO decisions (repository, cluster, fingerprint, pull_request, decided_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (repository, cluster, fingerprint) DO UPDATE SET pull_request = excluded.pull_request, decided_at = excluded.decided_at`,
    );
    this.db
      .transaction(() => {
        for (const d of decisions) insert.run(d.repository, d.cluster, d.fingerprint, d.pullRequest, d.decidedAt);
      })
      .immediate();
  }

  async declinedFingerprints(repository: string, cluster: string): Promise<Set<string>> {
    const rows = this.db
      .prepare('SELECT fingerprint FROM decisions WHERE repository = ? AND cluster = ?')
      .all(repository, cluster) as Array<{ fingerprint: string }>;
    return new Set(rows.map((row) => row.fingerprint));
  }

  async recordItemDecisions(decisions: ItemDecision[]): Promise<void> {
    const insert = this.db.prepare(
      `INSERT INTO item_decisions (${ITEM_DECISION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ${ITEM_DECISION_UPSERT}`,
    );
    this.db
      .transaction(() => {
        for (const decision of decisions) insert.run(...itemDecisionValues(decision));
      })
      .immediate();
  }

  async itemDecisions(repository: string, cluster: string): Promise<ItemDecision[]> {
    const rows = this.db
      .prepare(
        `SELECT ${ITEM_DECISION_COLUMNS} FROM item_decisions WHERE repository = ? AND cluster = ? ORDER BY decided_at, fingerprint`,
      )
      .all(repository, cluster) as ItemDecisionRow[];
    return rows.map(itemDecisionFromRow);
  }

  async claimCommand(claim: CommandClaim): Promise<boolean> {
    const result = this.db
      .prepare(
        `INSERT INTO commands (repository, comment_id, pull_request, received_ms) VALUES (?, ?, ?, ?)
         ON CONFLICT (repository, comment_id) DO NOTHING`,
      )
      .run(claim.repository, claim.commentId, claim.pullRequest, claim.receivedMs);
    return result.changes === 1;
  }

  async commandsSince(repository: string, pullRequest: number, sinceMs: number): Promise<number> {
    const row = this.db
      .prepare('SELECT COUNT(*) AS n FROM commands WHERE repository = ? AND pull_request = ? AND received_ms >= ?')
      .get(repository, pullRequest, sinceMs) as { n: number };
    return row.n;
  }

  async forgetCommands(beforeMs: number): Promise<number> {
    return this.db.prepare('DELETE FROM commands WHERE received_ms < ?').run(beforeMs).changes;
  }

  async getBlobs(shas: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const unique = [...new Set(shas)];
    for (let i = 0; i < unique.length; i += BATCH) {
      const batch = unique.slice(i, i + BATCH);
      const rows = this.db
        .prepare(`SELECT sha, text FROM blobs WHERE sha IN (${batch.map(() => '?').join(', ')})`)
        .all(...batch) as Array<{ sha: string; text: string }>;
      for (const row of rows) found.set(row.sha, row.text);
    }
    return found;
  }

  async putBlobs(blobs: Map<string, string>, usedAt: number): Promise<void> {
    // A sha names its content, so an existing row is already right: only its last use moves.
    const insert = this.db.prepare(
      'INSERT INTO blobs (sha, text, used_at) VALUES (?, ?, ?) ON CONFLICT (sha) DO UPDATE SET used_at = MAX(blobs.used_at, excluded.used_at)',
    );
    this.db
      .transaction(() => {
        for (const [sha, text] of blobs) insert.run(sha, text, usedAt);
      })
      .immediate();
  }

  async touchBlobs(shas: string[], usedAt: number): Promise<void> {
    const unique = [...new Set(shas)];
    this.db
      .transaction(() => {
        for (let i = 0; i < unique.length; i += BATCH) {
          const batch = unique.slice(i, i + BATCH);
          this.db
            .prepare(`UPDATE blobs SET used_at = ? WHERE used_at < ? AND sha IN (${batch.map(() => '?').join(', ')})`)
            .run(usedAt, usedAt - TOUCH_EVERY_MS, ...batch);
        }
      })
      .immediate();
  }

  async evictBlobs(unusedSince: number): Promise<number> {
    return this.db.prepare('DELETE FROM blobs WHERE used_at < ?').run(unusedSince).changes;
  }

  async getState<K extends StateKind>(key: StateKey & { kind: K }): Promise<StateOf[K] | undefined> {
    const { repository, cluster } = stateRow(key);
    const row = this.db
      .prepare('SELECT value, version FROM state WHERE repository = ? AND cluster = ?')
      .get(repository, cluster) as { value: string; version: number } | undefined;
    return row ? decodeState<K>(key as { kind: K; repository: string }, row.version, row.value) : undefined;
  }

  async setState<K extends StateKind>(key: StateKey & { kind: K }, state: StateOf[K]): Promise<void> {
    const { repository, cluster } = stateRow(key);
    this.db
      .prepare(
        'INSERT INTO state (repository, cluster, value, version) VALUES (?, ?, ?, ?) ON CONFLICT (repository, cluster) DO UPDATE SET value = excluded.value, version = excluded.version',
      )
      .run(repository, cluster, encodeState<K>(key as { kind: K; repository: string }, state), STATE_VERSION);
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private latestRow(repository: string, cluster: string): SnapshotMetaRow | undefined {
    return this.db
      .prepare(
        `SELECT ${SNAPSHOT_META_COLUMNS} FROM snapshots WHERE repository = ? AND cluster = ? AND stale = 0 ORDER BY captured_ms DESC, seq DESC LIMIT 1`,
      )
      .get(repository, cluster) as SnapshotMetaRow | undefined;
  }
}

/** Applies every migration not yet recorded; one IMMEDIATE transaction, so two processes cannot both apply one. */
export function migrateSqlite(db: Database.Database): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  db.transaction(() => {
    const applied = new Set(
      (db.prepare('SELECT version FROM migrations').all() as Array<{ version: number }>).map((row) => row.version),
    );
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      db.exec(migration.sqlite);
      db.prepare('INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    }
  }).immediate();
}
