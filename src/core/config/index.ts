// Repository configuration: `.github/driftback.yml` raw → validated with defaults.
export * from './schema.js';
export * from './parse.js';
export * from './compare.js';
