// The shared vocabulary of the pipeline: identities, objects, snapshots, drift, plans, source maps.
export * from './key.js';
export * from './live.js';
export * from './object.js';
export * from './pointer.js';
export * from './source.js';
export * from './drift.js';
export * from './health.js';
export * from './snapshot.js';
export * from './own.js';
export * from './plan.js';
export * from './repo-path.js';
export * from './file-text.js';
export * from './show.js';
export * from './source-report.js';
export * from './suspension-notice.js';
export * from './sync-hook.js';
export * from './chart.js';
