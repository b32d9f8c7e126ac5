// Public surface of the store: the interface, both implementations, and the picker.
export * from './types.js';
export { openStore, SQLITE_FILE_NAME, type OpenStoreOptions } from './open-store.js';
export { SqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
export { PostgresStore, type PostgresStoreOptions } from './postgres-store.js';
export { StoreUnavailableError, isConnectionError } from './errors.js';
export { snapshotIdFor } from './snapshot-codec.js';
export { DEFAULT_RETAIN } from './migrations.js';
export * from './state/index.js';
