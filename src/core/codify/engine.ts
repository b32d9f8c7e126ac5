// The render and diff steps codify's self-check runs: the same engine `driftback diff` uses.
import { renderManifests } from '../manifests/index.js';
import { diffResources } from '../diff/index.js';
import type { CodifyEngine } from './types.js';

export const defaultEngine: CodifyEngine = {
  render: (files, root, options) => renderManifests(files, root, options),
  diff: (desired, live, options) => diffResources(desired, live, options),
};
