// The drift engine: desired × live → field changes, with merge keys, quantities and ownership.
export { diffObject, type DiffOptions } from './diff-object.js';
export { diffResources, type DiffResourcesOptions } from './diff-resources.js';
export { fingerprintChange, applyPersistenceGate, classifyManager } from '../classify/index.js';
