// Picks the store for the App's environment: PostgreSQL when a database URL is given, otherwise a
// SQLite file in the data directory.
import { join } from 'node:path';
import { PostgresStore } from './postgres-store.js';
import { SqliteStore } from './sqlite-store.js';
import type { Store } from './types.js';

export interface OpenStoreOptions {
  /** Directory of the SQLite file (`driftback.sqlite`). Default `./data`. */
  dataDir?: string;
  /** PostgreSQL connection string; when set it wins over `dataDir`. */
  databaseUrl?: string;
  /** PostgreSQL schema for the tables. Default `public`. */
  schema?: string;
  /** Snapshots kept per (repository, cluster). Default 10. */
  retain?: number;
}

export const SQLITE_FILE_NAME = 'driftback.sqlite';

export async function openStore(options: OpenStoreOptions = {}): Promise<Store> {
  if (options.databaseUrl) {
    return PostgresStore.open({
      connectionString: options.databaseUrl,
      schema: options.schema,
      retain: options.retain,
    });
  }
  return SqliteStore.open({ file: join(options.dataDir ?? './data', SQLITE_FILE_NAME), retain: options.retain });
}
