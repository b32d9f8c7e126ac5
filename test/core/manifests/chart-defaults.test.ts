// A chart's default values (its values.yaml over each subchart's, under the subchart's name) are kept
// between renders of the same chart; each caller still gets values of its own. The build context's copy
// of kustomize's default field specs is the config merging them again gives.
import { describe, expect, it } from 'vitest';
import { chartDefaultValues } from '../../../src/core/manifests/index.js';
import { newBuildContext } from '../../../src/core/manifests/build-context.js';
import { defaultTransformerConfig, emptyConfig, mergeConfig } from '../../../src/core/manifests/transformer-config.js';

const chart = () =>
  new Map([
    ['Chart.yaml', 'name: blog\nversion: 1.0.0\n'],
    ['values.yaml', 'replicaCount: 1\ndb:\n  auth:\n    user: blog\n'],
    ['charts/db/values.yaml', 'auth:\n  user: root\n  port: 3306\n'],
  ]);

describe("a chart's default values", () => {
  it("put the chart's values over each subchart's, under the subchart's name", () => {
    expect(chartDefaultValues(chart())).toEqual({ replicaCount: 1, db: { auth: { user: 'blog', port: 3306 } } });
  });

  it('are values of their own for each caller, though read once', () => {
    const first = chartDefaultValues(chart());
    (first.db as { auth: { user: string } }).auth.user = 'changed by a caller';
    first.replicaCount = 9;
    expect(chartDefaultValues(chart())).toEqual({ replicaCount: 1, db: { auth: { user: 'blog', port: 3306 } } });
  });

  it('follow a changed values file', () => {
    const files = chart();
    chartDefaultValues(files);
    files.set('charts/db/values.yaml', 'auth:\n  user: root\n  port: 3307\n');
    expect(chartDefaultValues(files)).toEqual({ replicaCount: 1, db: { auth: { user: 'blog', port: 3307 } } });
  });
});

describe("a build context's transformer config", () => {
  it("is kustomize's default field specs merged, and a change to one context's is not the next one's", () => {
    const merged = mergeConfig(emptyConfig(), defaultTransformerConfig());
    const first = newBuildContext(new Map()).config;
    expect(first).toEqual(merged);
    first.namespace.push({ path: 'spec/extra', kind: 'Widget' });
    first.nameReference[0]!.fieldSpecs.push({ path: 'spec/extraRef', kind: 'Widget' });
    expect(newBuildContext(new Map()).config).toEqual(merged);
  });
});
