// Helm for the commands that render: found as the App finds it (HELM_BINARY, PATH, the pinned one),
// with the offline charts directory (`--charts DIR`, else DRIFTBACK_CHARTS_DIR) for repository charts.
// Without Helm, charts are reported, not rendered ("helm not found").
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ChartRenderer } from '../core/charts/index.js';
import { locateHelm } from '../helm/locate.js';
import { createChartRenderer } from '../helm/renderer.js';
import { CliError, type CliIO } from './io.js';

export function cliCharts(io: Pick<CliIO, 'env' | 'cwd'>, chartsFlag: string | undefined): ChartRenderer | undefined {
  const given = chartsFlag ?? io.env.DRIFTBACK_CHARTS_DIR;
  const chartsDir = given ? resolve(io.cwd, given) : undefined;
  if (chartsDir) {
    let directory = false;
    try {
      directory = statSync(chartsDir).isDirectory();
    } catch {
      directory = false;
    }
    const from = chartsFlag ? '--charts' : 'DRIFTBACK_CHARTS_DIR';
    if (!directory) throw new CliError(`${from} ${given}: not a directory of chart archives (<name>-<version>.tgz)`);
  }
  const helm = locateHelm(io.env);
  if (!helm.found) return undefined;
  return createChartRenderer({ helm: helm.helm, ...(chartsDir ? { chartsDir } : {}) });
}
