// Versioned schema changes, applied in order at start and recorded in the `migrations` table.
// A migration is never edited once released: a change to the schema is a new entry at the end.

export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'snapshots, observations, decisions, blobs, state',
    sqlite: `
      CREATE TABLE snapshots (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        repository TEXT NOT NULL,
        cluster TEXT NOT NULL,
        captured_at TEXT NOT NULL,
        captured_ms INTEGER NOT NULL,
        received_at TEXT NOT NULL,
        digest TEXT NOT NULL,
        items INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        stale INTEGER NOT NULL DEFAULT 0,
        body BLOB NOT NULL
      );
      CREATE INDEX snapshots_by_cluster ON snapshots (repository, cluster, stale, captured_ms DESC, seq DESC);
      CREATE TABLE observations (
        repository TEXT NOT NULL,
        cluster TEXT NOT NULL,
        snapshot_id TEXT NOT NULL,
        captured_at TEXT NOT NULL,
        captured_ms INTEGER NOT NULL,
        fingerprints TEXT NOT NULL,
        PRIMARY KEY (repository, cluster, snapshot_id)
      );
      CREATE INDEX observations_by_time ON observations (repository, cluster, captured_ms DESC);
      CREATE TABLE decisions (
        repository TEXT NOT NULL,
        cluster TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        pull_request INTEGER NOT NULL,
        decided_at TEXT NOT NULL,
        PRIMARY KEY (repository, cluster, fingerprint)
      );
      CREATE TABLE blobs (sha TEXT PRIMARY KEY, text TEXT NOT NULL);
      CREATE TABLE state (
        repository TEXT NOT NULL,
        cluster TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (repository, cluster)
      );`,
    postgres: `
      CREATE TABLE snapshots (
        seq BIGSERIAL PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        repository TEXT NOT NULL,
        cluster TEXT NOT NULL,
        captured_at TEXT NOT NULL,
        captured_ms BIGINT NOT NULL,
        received_at TEXT NOT NULL,
        digest TEXT NOT NULL,
        items INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        stale BOOLEAN NOT NULL DEFAULT false,
        body BYTEA NOT NULL
      );
      CREATE INDEX snapshots_by_cluster ON snapshots (repository, cluster, stale, captured_ms DESC, seq DESC);
      CREATE TABLE observations (
        repository TEXT NOT NULL,
        cluster TEXT NOT NULL,
        snapshot_id TEXT NOT NULL,
        captured_at TEXT NOT NULL,
        captured_ms BIGINT NOT NULL,
        fingerprints JSONB NOT NULL,
        PRIMARY KEY (repository, cluster, snapshot_id)
      );
      CREATE INDEX observations_by_time ON observations (repository, cluster, captured_ms DESC);
      CREATE TABLE decisions (
        repository TEXT NOT NULL,
        cluster TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        pull_request INTEGER NOT NULL,
        decided_at TEXT NOT NULL,
        PRIMARY KEY (repository, cluster, fingerprint)
      );
      CREATE TABLE blobs (sha TEXT PRIMARY KEY, text TEXT NOT NULL);
      CREATE TABLE state (
        repository TEXT NOT NULL,
        cluster TEXT NOT NULL,
        value JSONB NOT NULL,
        PRIMARY KEY (repository, cluster)
      );`,
  },
  {
    version: 2,
    name: 'SQLite job queue table',
    // The PostgreSQL queue is graphile-worker, which keeps its own schema; this keeps the
    // version numbers aligned between the two.
    sqlite: `
      CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        queue TEXT NOT NULL,
        key TEXT NOT NULL,
        payload TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'running')),
        attempt INTEGER NOT NULL DEFAULT 1,
        run_at INTEGER NOT NULL,
        last_error TEXT
      );
      CREATE UNIQUE INDEX jobs_one_pending_per_key ON jobs (queue, key) WHERE state = 'pending';
      CREATE INDEX jobs_due ON jobs (state, run_at);`,
    postgres: `SELECT 1;`,
  },
  {
    version: 3,
    name: 'blob cache: last use, for eviction',
    // Rows from before have used_at 0: unused for a long time, so the first eviction clears them
    // (a blob still needed is fetched once more and kept from then on).
    sqlite: `
      ALTER TABLE blobs ADD COLUMN used_at INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX blobs_by_use ON blobs (used_at);`,
    postgres: `
      ALTER TABLE blobs ADD COLUMN used_at BIGINT NOT NULL DEFAULT 0;
      CREATE INDEX blobs_by_use ON blobs (used_at);`,
  },
  {
    version: 4,
    name: 'state: the version of its shape',
    // Rows from before are version 1; src/store/state/versions.ts brings them to the current shape on read.
    sqlite: `ALTER TABLE state ADD COLUMN version INTEGER NOT NULL DEFAULT 1;`,
    postgres: `ALTER TABLE state ADD COLUMN version INTEGER NOT NULL DEFAULT 1;`,
  },
  {
    version: 5,
    name: 'snapshots: a capture later than its receipt sorts at its receipt',
    // Rows stored before sorted by capturedAt alone; a clock ahead is brought back to when the App
    // received the snapshot (received_at is the App's own ISO 8601 UTC time).
    sqlite: `
      UPDATE snapshots SET captured_ms = CAST(ROUND((julianday(received_at) - 2440587.5) * 86400000) AS INTEGER)
        WHERE captured_ms > CAST(ROUND((julianday(received_at) - 2440587.5) * 86400000) AS INTEGER);`,
    postgres: `
      UPDATE snapshots SET captured_ms = (extract(epoch FROM received_at::timestamptz) * 1000)::bigint
        WHERE captured_ms > (extract(epoch FROM received_at::timestamptz) * 1000)::bigint;`,
  },
  {
    version: 6,
    name: 'decisions people made on single drift items, and the PR comment commands handled',
    // A comment id is handled once (an edited comment does not run its command again); the rows of a
    // pull request's last minutes bound how many commands it may run.
    sqlite: `
      CREATE TABLE item_decisions (
        repository TEXT NOT NULL,
        cluster TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        action TEXT NOT NULL,
        object TEXT NOT NULL,
        field TEXT NOT NULL,
        reason TEXT NOT NULL,
        decided_by TEXT NOT NULL,
        decided_at TEXT NOT NULL,
        pull_request INTEGER NOT NULL,
        comment_id INTEGER NOT NULL,
        PRIMARY KEY (repository, cluster, fingerprint)
      );
      CREATE TABLE commands (
        repository TEXT NOT NULL,
        comment_id INTEGER NOT NULL,
        pull_request INTEGER NOT NULL,
        received_ms INTEGER NOT NULL,
        PRIMARY KEY (repository, comment_id)
      );
      CREATE INDEX commands_by_pull ON commands (repository, pull_request, received_ms);`,
    postgres: `
      CREATE TABLE item_decisions (
        repository TEXT NOT NULL,
        cluster TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        action TEXT NOT NULL,
        object TEXT NOT NULL,
        field TEXT NOT NULL,
        reason TEXT NOT NULL,
        decided_by TEXT NOT NULL,
        decided_at TEXT NOT NULL,
        pull_request INTEGER NOT NULL,
        comment_id BIGINT NOT NULL,
        PRIMARY KEY (repository, cluster, fingerprint)
      );
      CREATE TABLE commands (
        repository TEXT NOT NULL,
        comment_id BIGINT NOT NULL,
        pull_request INTEGER NOT NULL,
        received_ms BIGINT NOT NULL,
        PRIMARY KEY (repository, comment_id)
      );
      CREATE INDEX commands_by_pull ON commands (repository, pull_request, received_ms);`,
  },
];

/** Default number of snapshots kept per (repository, cluster). */
export const DEFAULT_RETAIN = 10;
/** Observations kept per (repository, cluster): enough for any persistence gate, bounded growth. */
export const OBSERVATIONS_KEPT = 50;
