// Tests look into a SQLite store's file through a connection of their own: the store hands out no
// handle to its database. One connection per file, opened on first use (WAL lets it read and write
// beside the App's).
import Database from 'better-sqlite3';
import type { Store } from '../../src/store/types.js';

const connections = new Map<string, Database.Database>();

export function sqliteFile(file: string): Database.Database {
  let db = connections.get(file);
  if (!db?.open) {
    db = new Database(file);
    db.pragma('busy_timeout = 5000');
    connections.set(file, db);
  }
  return db;
}

/** The file of a SQLite store, opened for the test. */
export function sqliteOf(store: Pick<Store, 'backend'>): Database.Database {
  const backend = store.backend;
  if (backend?.type !== 'sqlite') throw new Error('expected a SQLite store');
  return sqliteFile(backend.file);
}
