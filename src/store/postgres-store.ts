// The PostgreSQL store, used when DATABASE_URL is set so several App replicas share one state.
// All tables live in one schema (default `public`); a pg Pool reconnects on its own after the
// server drops connections, and a call made while it is down rejects with StoreUnavailableError.
import pg from 'pg';
import type { Snapshot } from '../core/model/index.js';
import { isConnectionError, StoreUnavailableError } from './errors.js';
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

export interface PostgresStoreOptions {
  connectionString: string;
  /** Schema holding the tables; created when missing. Default `public`. */
  schema?: string;
  /** Snapshots kept per (repository, cluster). Default 10. */
  retain?: number;
  /** Pool size. Default 10. */
  maxConnections?: number;
  /** Shown in pg_stat_activity. Default `driftback`. */
  applicationName?: string;
}

type Queryable = Pick<pg.PoolClient, 'query'>;

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export class PostgresStore implements Store {
  readonly backend;

  private constructor(
    private readonly pool: pg.Pool,
    readonly schema: string,
    private readonly retain: number,
    connectionString: string,
  ) {
    this.backend = { type: 'postgres', connectionString, schema } as const;
  }

  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const schema = options.schema ?? 'public';
    if (!IDENTIFIER.test(schema)) throw new Error(`schema "${schema}": expected lower-case letters, digits and "_"`);
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: 10_000,
      options: `-c search_path=${schema}`,
      application_name: options.applicationName ?? 'driftback',
    });
    // An idle client whose backend was terminated emits here; without a listener the process
    // would crash. The pool has already discarded that client, so there is nothing else to do.
    pool.on('error', () => undefined);
    const store = new PostgresStore(pool, schema, options.retain ?? DEFAULT_RETAIN, options.connectionString);
    try {
      await store.migrate();
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw isConnectionError(error) ? new StoreUnavailableError('postgres', error) : error;
    }
    return store;
  }

  async putSnapshot(
    snapshot: Snapshot,
    options: { digest: string; receivedAt: string; compressed?: Buffer },
  ): Promise<PutSnapshotResult> {
    const { repository, cluster } = snapshot;
    const insert = await snapshotInsert(snapshot, options);
    return this.transaction(async (client) => {
      // Serializes writers of one cluster across replicas, so "is this older than the latest?" holds.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
        `driftback:snapshot:${this.schema}:${repository}#${cluster}`,
      ]);
      const existing = await client.query<SnapshotMetaRow>(
        `SELECT ${SNAPSHOT_META_COLUMNS} FROM snapshots WHERE id = $1`,
        [insert.meta.id],
      );
      if (existing.rows[0]) return { type: 'duplicate', meta: metaFromRow(existing.rows[0]) };
      const { stale, result } = putOutcome(insert, await this.latestRow(client, repository, cluster));
      await client.query(
        `INSERT INTO snapshots (${SNAPSHOT_INSERT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        snapshotInsertValues(insert, stale),
      );
      await client.query(
        `DELETE FROM snapshots WHERE repository = $1 AND cluster = $2 AND seq NOT IN (
           SELECT seq FROM snapshots WHERE repository = $1 AND cluster = $2 ORDER BY captured_ms DESC, seq DESC LIMIT $3)`,
        [repository, cluster, this.retain],
      );
      return result;
    });
  }

  async getSnapshot(id: string): Promise<{ meta: StoredSnapshotMeta; snapshot: Snapshot } | undefined> {
    const result = await this.query<SnapshotMetaRow & { body: Buffer }>(
      `SELECT ${SNAPSHOT_META_COLUMNS}, body FROM snapshots WHERE id = $1`,
      [id],
    );
    const row = result.rows[0];
    if (!row) return undefined;
    return { meta: metaFromRow(row), snapshot: await decompressSnapshot(row.body) };
  }

  async latestSnapshot(
    repository: string,
    cluster: string,
  ): Promise<{ meta: StoredSnapshotMeta; snapshot: Snapshot } | undefined> {
    const result = await this.query<SnapshotMetaRow & { body: Buffer }>(
      `SELECT ${SNAPSHOT_META_COLUMNS}, body FROM snapshots WHERE repository = $1 AND cluster = $2 AND NOT stale ORDER BY captured_ms DESC, seq DESC LIMIT 1`,
      [repository, cluster],
    );
    const row = result.rows[0];
    if (!row) return undefined;
    return { meta: metaFromRow(row), snapshot: await decompressSnapshot(row.body) };
  }

  async latestSnapshotMeta(repository: string, cluster: string): Promise<StoredSnapshotMeta | undefined> {
    const row = await this.guard(() => this.latestRow(this.pool, repository, cluster));
    return row ? metaFromRow(row) : undefined;
  }

  async listClusters(): Promise<StoredSnapshotMeta[]> {
    const result = await this.query<SnapshotMetaRow>(
      `SELECT ${SNAPSHOT_META_COLUMNS} FROM (
         SELECT DISTINCT ON (repository, cluster) * FROM snapshots WHERE NOT stale
         ORDER BY repository, cluster, captured_ms DESC, seq DESC) latest
       ORDER BY captured_ms DESC, seq DESC`,
    );
    return result.rows.map(metaFromRow);
  }

  async recordObservations(
    repository: string,
    cluster: string,
    snapshotId: string,
    capturedAt: string,
    fingerprints: string[],
  ): Promise<void> {
    await this.transaction(async (client) => {
      await client.query(
        `INSERT INTO observations (repository, cluster, snapshot_id, captured_at, captured_ms, fingerprints) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (repository, cluster, snapshot_id) DO UPDATE SET fingerprints = excluded.fingerprints`,
        [
          repository,
          cluster,
          snapshotId,
          capturedAt,
          instantOf(capturedAt),
          JSON.stringify([...new Set(fingerprints)].sort()),
        ],
      );
      await client.query(
        `DELETE FROM observations WHERE repository = $1 AND cluster = $2 AND snapshot_id NOT IN (
           SELECT snapshot_id FROM observations WHERE repository = $1 AND cluster = $2 ORDER BY captured_ms DESC LIMIT $3)`,
        [repository, cluster, OBSERVATIONS_KEPT],
      );
    });
  }

  async observationHistory(
    repository: string,
    cluster: string,
    limit: number,
  ): Promise<Array<{ snapshotId: string; capturedAt: string; fingerprints: Set<string> }>> {
    const result = await this.query<{ snapshot_id: string; captured_at: string; fingerprints: string[] }>(
      'SELECT snapshot_id, captured_at, fingerprints FROM observations WHERE repository = $1 AND cluster = $2 ORDER BY captured_ms DESC LIMIT $3',
      [repository, cluster, limit],
    );
    return result.rows.map((row) => ({
      snapshotId: row.snapshot_id,
      capturedAt: row.captured_at,
      fingerprints: new Set(row.fingerprints),
    }));
  }

  async recordDecisions(decisions: Decision[]): Promise<void> {
    if (decisions.length === 0) return;
    await this.query(
      `INSERT INTO decisions (repository, cluster, fingerprint, pull_request, decided_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[])
       ON CONFLICT (repository, cluster, fingerprint) DO UPDATE SET pull_request = excluded.pull_request, decided_at = excluded.decided_at`,
      [
        decisions.map((d) => d.repository),
        decisions.map((d) => d.cluster),
        decisions.map((d) => d.fingerprint),
        decisions.map((d) => d.pullRequest),
        decisions.map((d) => d.decidedAt),
      ],
    );
  }

  async declinedFingerprints(repository: string, cluster: string): Promise<Set<string>> {
    const result = await this.query<{ fingerprint: string }>(
      'SELECT fingerprint FROM decisions WHERE repository = $1 AND cluster = $2',
      [repository, cluster],
    );
    return new Set(result.rows.map((row) => row.fingerprint));
  }

  async recordItemDecisions(decisions: ItemDecision[]): Promise<void> {
    // One statement per decision: a batch is a handful of items, and each row replaces its item's.
    for (const decision of decisions)
      await this.query(
        `INSERT INTO item_decisions (${ITEM_DECISION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ${ITEM_DECISION_UPSERT}`,
        itemDecisionValues(decision),
      );
  }

  async itemDecisions(repository: string, cluster: string): Promise<ItemDecision[]> {
    const result = await this.query<ItemDecisionRow>(
      `SELECT ${ITEM_DECISION_COLUMNS} FROM item_decisions WHERE repository = $1 AND cluster = $2 ORDER BY decided_at, fingerprint`,
      [repository, cluster],
    );
    return result.rows.map(itemDecisionFromRow);
  }

  async claimCommand(claim: CommandClaim): Promise<boolean> {
    const result = await this.query(
      `INSERT INTO commands (repository, comment_id, pull_request, received_ms) VALUES ($1, $2, $3, $4)
       ON CONFLICT (repository, comment_id) DO NOTHING`,
      [claim.repository, claim.commentId, claim.pullRequest, claim.receivedMs],
    );
    return result.rowCount === 1;
  }

  async commandsSince(repository: string, pullRequest: number, sinceMs: number): Promise<number> {
    const result = await this.query<{ n: string }>(
      'SELECT COUNT(*) AS n FROM commands WHERE repository = $1 AND pull_request = $2 AND received_ms >= $3',
      [repository, pullRequest, sinceMs],
    );
    return Number(result.rows[0]?.n ?? 0);
  }

  async forgetCommands(beforeMs: number): Promise<number> {
    const result = await this.query('DELETE FROM commands WHERE received_ms < $1', [beforeMs]);
    return result.rowCount ?? 0;
  }

  async getBlobs(shas: string[]): Promise<Map<string, string>> {
    if (shas.length === 0) return new Map();
    const result = await this.query<{ sha: string; text: string }>(
      'SELECT sha, text FROM blobs WHERE sha = ANY($1::text[])',
      [[...new Set(shas)]],
    );
    return new Map(result.rows.map((row) => [row.sha, row.text]));
  }

  async putBlobs(blobs: Map<string, string>, usedAt: number): Promise<void> {
    if (blobs.size === 0) return;
    // A sha names its content, so an existing row is already right: only its last use moves.
    await this.query(
      'INSERT INTO blobs (sha, text, used_at) SELECT sha, text, $3 FROM unnest($1::text[], $2::text[]) AS b(sha, text) ON CONFLICT (sha) DO UPDATE SET used_at = GREATEST(blobs.used_at, excluded.used_at)',
      [[...blobs.keys()], [...blobs.values()], usedAt],
    );
  }

  async touchBlobs(shas: string[], usedAt: number): Promise<void> {
    if (shas.length === 0) return;
    // A blob's last use is recorded at most once an hour (a read does not write every time).
    await this.query('UPDATE blobs SET used_at = $2 WHERE sha = ANY($1::text[]) AND used_at < $3', [
      [...new Set(shas)],
      usedAt,
      usedAt - 60 * 60 * 1000,
    ]);
  }

  async evictBlobs(unusedSince: number): Promise<number> {
    const result = await this.query('DELETE FROM blobs WHERE used_at < $1', [unusedSince]);
    return result.rowCount ?? 0;
  }

  async getState<K extends StateKind>(key: StateKey & { kind: K }): Promise<StateOf[K] | undefined> {
    const { repository, cluster } = stateRow(key);
    const result = await this.query<{ value: unknown; version: number }>(
      'SELECT value, version FROM state WHERE repository = $1 AND cluster = $2',
      [repository, cluster],
    );
    const row = result.rows[0];
    return row ? decodeState<K>(key as { kind: K; repository: string }, row.version, row.value) : undefined;
  }

  async setState<K extends StateKind>(key: StateKey & { kind: K }, state: StateOf[K]): Promise<void> {
    const { repository, cluster } = stateRow(key);
    await this.query(
      'INSERT INTO state (repository, cluster, value, version) VALUES ($1, $2, $3, $4) ON CONFLICT (repository, cluster) DO UPDATE SET value = excluded.value, version = excluded.version',
      [repository, cluster, encodeState<K>(key as { kind: K; repository: string }, state), STATE_VERSION],
    );
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }

  private async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      // Two replicas starting at once: the second waits here, then finds nothing left to apply.
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [`driftback:migrations:${this.schema}`]);
      try {
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
        await client.query(
          'CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
        );
        const applied = new Set(
          (await client.query<{ version: number }>('SELECT version FROM migrations')).rows.map((row) => row.version),
        );
        for (const migration of MIGRATIONS) {
          if (applied.has(migration.version)) continue;
          await client.query('BEGIN');
          try {
            await client.query(migration.postgres);
            await client.query('INSERT INTO migrations (version, name) VALUES ($1, $2)', [
              migration.version,
              migration.name,
            ]);
            await client.query('COMMIT');
          } catch (error) {
            await client.query('ROLLBACK');
            throw new Error(`migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`, {
              cause: error,
            });
          }
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`driftback:migrations:${this.schema}`]);
      }
    } finally {
      client.release();
    }
  }

  private latestRow(client: Queryable, repository: string, cluster: string): Promise<SnapshotMetaRow | undefined> {
    return client
      .query<SnapshotMetaRow>(
        `SELECT ${SNAPSHOT_META_COLUMNS} FROM snapshots WHERE repository = $1 AND cluster = $2 AND NOT stale ORDER BY captured_ms DESC, seq DESC LIMIT 1`,
        [repository, cluster],
      )
      .then((result) => result.rows[0]);
  }

  private query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return this.guard(() => this.pool.query<R>(text, values));
  }

  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.guard(async () => {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        broken = error as Error;
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        // A client whose connection failed must not go back into the pool.
        client.release(broken && isConnectionError(broken) ? broken : undefined);
      }
    });
  }

  private async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw isConnectionError(error) ? new StoreUnavailableError('postgres', error) : error;
    }
  }
}
