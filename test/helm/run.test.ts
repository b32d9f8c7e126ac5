// `helm template` in its sandbox: a hostile chart ends with a clear reason within its limits, never
// reads outside its directory, and an unchanged chart is not rendered twice.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChartRequest } from '../../src/core/charts/index.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer, offlineArchive } from '../../src/helm/renderer.js';
import { packagedChart } from '../support/charts.js';
import { helmTemplate } from '../../src/helm/run.js';
import { pinnedHelm } from '../support/tools.js';

const found = locateHelm({ HELM_BINARY: pinnedHelm(), PATH: '' });
if (!found.found) throw new Error(found.reason);
const helm = found.helm;

function request(files: Record<string, string>, extra: Partial<ChartRequest> = {}): ChartRequest {
  return {
    where: 'charts/hostile',
    chart: {
      type: 'files',
      files: new Map(Object.entries({ 'Chart.yaml': 'apiVersion: v2\nname: hostile\nversion: 0.1.0\n', ...files })),
    },
    releaseName: 'r',
    namespace: 'default',
    valueFiles: [],
    set: [],
    apiVersions: [],
    includeCrds: false,
    ...extra,
  };
}

const LIMITS = { timeMs: 20_000, memoryMb: 2048, outputBytes: 1024 * 1024 };

describe('charts of Helm repositories, offline', () => {
  const chartsDir = packagedChart('upstream/charts/podinfo');
  const repositoryChart = (version: string, digest?: string): ChartRequest =>
    request(
      {},
      {
        chart: {
          type: 'repository',
          url: 'https://stefanprodan.github.io/podinfo',
          name: 'podinfo',
          version,
          ...(digest ? { digest } : {}),
        },
      },
    );

  it('takes the archive helm pull writes, the highest a version range allows', () => {
    for (const version of ['6.14.1', '>=1.0.0-alpha', '>=6.0.0 <7.0.0', '*']) {
      expect(offlineArchive(repositoryChart(version), chartsDir), version).toMatchObject({
        path: join(chartsDir, 'podinfo-6.14.1.tgz'),
      });
    }
    expect(offlineArchive(repositoryChart('<6.0.0'), chartsDir)).toEqual({
      reason: `chart podinfo <6.0.0: no archive in ${chartsDir} has a version it allows`,
    });
  });

  it('checks the digest the source pins', () => {
    const bytes = readFileSync(join(chartsDir, 'podinfo-6.14.1.tgz'));
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    expect(offlineArchive(repositoryChart('6.14.1', digest), chartsDir)).toMatchObject({
      path: join(chartsDir, 'podinfo-6.14.1.tgz'),
    });
    const wrong = `sha256:${'0'.repeat(64)}`;
    expect(offlineArchive(repositoryChart('6.14.1', wrong), chartsDir)).toEqual({
      reason: `${join(chartsDir, 'podinfo-6.14.1.tgz')} has digest ${digest}, the source pins ${wrong}`,
    });
  });
});

describe('helm template, sandboxed', () => {
  it('refuses a chart file whose path leaves the chart', () => {
    const output = helmTemplate(helm, request({ '../../etc/cron.d/x': 'boom' }), LIMITS);
    expect(output).toEqual({ ok: false, reason: 'chart file "../../etc/cron.d/x" leaves the chart directory' });
  });

  it('reads no file outside the chart (.Files sees only the chart)', () => {
    const output = helmTemplate(
      helm,
      request({
        'templates/cm.yaml':
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  passwd: {{ .Files.Get "../../../../etc/passwd" | quote }}\n',
      }),
      LIMITS,
    );
    expect(output.ok && output.manifest).toContain('passwd: ""');
  });

  it('stops a chart that prints more than the output limit', () => {
    const big = '{{- range until 200000 }}\n# {{ . }} padding padding padding padding padding padding\n{{- end }}\n';
    const output = helmTemplate(helm, request({ 'templates/big.yaml': big }), LIMITS);
    expect(output).toEqual({ ok: false, reason: 'helm printed more than 1 MiB, the output limit of one chart' });
  });

  it("ends a deep include recursion with Helm's error", () => {
    const output = helmTemplate(
      helm,
      request({
        'templates/_r.tpl': '{{- define "r" }}{{ include "r" . }}{{ end }}',
        'templates/a.yaml': '{{ include "r" . }}',
      }),
      LIMITS,
    );
    expect(output.ok).toBe(false);
    expect(!output.ok && output.reason).toMatch(
      /^helm template failed: template: hostile\/templates\/a.yaml:1:3: .* … error calling include: rendering template has a nested reference name: r: unable to execute template$/,
    );
  });

  it("reports a template error with Helm's message", () => {
    const output = helmTemplate(
      helm,
      request({ 'templates/a.yaml': '{{ required "image.tag is required" .Values.image }}' }),
      LIMITS,
    );
    expect(output).toEqual({ ok: false, reason: expect.stringContaining('image.tag is required') });
  });

  it('has no cluster: lookup finds nothing', () => {
    const lookup =
      '{{- $s := lookup "v1" "Namespace" "" "kube-system" }}apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  found: {{ empty $s | not | quote }}\n';
    const output = helmTemplate(helm, request({ 'templates/a.yaml': lookup }), LIMITS);
    expect(output.ok && output.manifest).toContain('found: "false"');
  });

  it('renders an unchanged chart once (cached by chart, values, versions)', () => {
    const cache = new Map();
    const render = createChartRenderer({ helm, cache });
    const chart = request(
      { 'templates/a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.cm }}\n' },
      { valueFiles: ['cm: one'] },
    );
    const first = render(chart);
    expect(first).toMatchObject({ ok: true, manifest: expect.stringContaining('name: one') });
    expect(render(chart)).toBe(first);
    expect(cache.size).toBe(1);
    expect(render({ ...chart, valueFiles: ['cm: two'] })).toMatchObject({
      ok: true,
      manifest: expect.stringContaining('name: two'),
    });
    expect(render({ ...chart, kubeVersion: 'v1.30.0' })).not.toBe(first);
    expect(cache.size).toBe(3);
  });
});
