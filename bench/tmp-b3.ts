import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { locateHelm } from '../src/helm/locate.js';
import { helmTemplate } from '../src/helm/run.js';
import { chartObjects } from '../src/core/charts/index.js';
const found = locateHelm(); if (!found.found) throw new Error();
const chartDir = '/work/wt-helm/test/fixtures/upstream/charts/podinfo';
const files = new Map<string,string>();
const walk = (d: string): void => { for (const n of readdirSync(d)) { const p = join(d,n); if (statSync(p).isDirectory()) walk(p); else files.set(relative(chartDir,p), readFileSync(p,'utf8')); } };
walk(chartDir);
const req = { where: 'x', chart: { type: 'files' as const, files }, releaseName: 'podinfo', namespace: 'podinfo', valueFiles: ['{"replicaCount":2}'], set: [], kubeVersion: 'v1.33.1', apiVersions: [], includeCrds: true };
const args = ['template', 'podinfo', chartDir, '-n', 'podinfo', '--no-hooks', '--include-crds', '--kube-version', 'v1.33.1'];
const T: Record<string, number[]> = {};
let out = '';
for (let i = 0; i < 15; i++) {
  let s = performance.now(); spawnSync(found.helm.path, args, { env: { HOME: '/tmp', PATH: '/usr/bin:/bin' }, encoding: 'utf8' }); (T.alone ??= []).push(performance.now() - s);
  s = performance.now(); const o = helmTemplate(found.helm, req); (T.run ??= []).push(performance.now() - s); if (o.ok) out = o.manifest;
  s = performance.now(); chartObjects({ manifest: out, where: 'charts/podinfo', releaseNamespace: 'podinfo', origin: { origin: { type: 'resource' } } }); (T.parse ??= []).push(performance.now() - s);
}
for (const [k, xs] of Object.entries(T)) { xs.sort((a, b) => a - b); console.log(k, 'min', xs[0].toFixed(1), 'med', xs[7].toFixed(1)); }
console.log(out.length);
