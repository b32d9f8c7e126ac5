// The drift engine: desired × live → field changes, with merge keys, quantities and ownership.
export { diffObject, type DiffOptions } from './diff-object.js';
export { diffResources, type DiffResourcesOptions } from './diff-resources.js';
export { listKeysFor } from './list-keys.js';
export { parseQuantity, quantitiesEqual } from './quantity.js';
export { buildOwnership, type Owner, type OwnershipIndex } from './ownership.js';
export type { UnlistedType } from './unlisted.js';
export { fingerprintChange, applyPersistenceGate, classifyManager } from '../classify/index.js';
