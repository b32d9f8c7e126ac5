// A repository chart's own default values read from its archive as `helm package` writes it: the
// chart's values.yaml below each subchart's, whether the subchart is a directory or itself packaged,
// the same values the chart's files give when the repository holds them.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chartDefaultValues } from '../../src/core/manifests/index.js';
import { archiveDefaults } from '../../src/helm/archive-values.js';
import { chartFiles, packagedChart } from '../support/charts.js';
import { REPO_ROOT } from '../support/fixtures.js';

const archiveOf = (dir: string): Buffer => readFileSync(join(dir, readdirSync(dir)[0]!));
const inRepository = chartDefaultValues(
  new Map([...chartFiles('charts/webapp', '.')].map(([path, text]) => [path.slice(2), text])),
);

describe('the defaults of a packaged chart', () => {
  it('are its values.yaml over its vendored subchart directory', () => {
    const defaults = archiveDefaults(archiveOf(packagedChart('charts/webapp')));
    expect(defaults).toEqual(inRepository);
    expect(defaults).toMatchObject({ replicaCount: 1, cache: { image: 'redis:7.2-alpine', maxMemory: '64mb' } });
  });

  it('read a packaged subchart (charts/<name>-<version>.tgz) under its name', () => {
    const copy = join(mkdtempSync(join(tmpdir(), 'fixtures-')), 'webapp');
    cpSync(join(REPO_ROOT, 'test/fixtures/charts/webapp'), copy, { recursive: true });
    const packagedCache = packagedChart('charts/webapp/charts/cache');
    rmSync(join(copy, 'charts/cache'), { recursive: true });
    cpSync(packagedCache, join(copy, 'charts'), { recursive: true });
    expect(readdirSync(join(copy, 'charts'))).toEqual([expect.stringMatching(/^cache-.*\.tgz$/)]);
    expect(archiveDefaults(archiveOf(packagedChart(relative(join(REPO_ROOT, 'test/fixtures'), copy))))).toEqual(
      inRepository,
    );
  });

  it('are none for bytes that are not a chart archive', () => {
    expect(archiveDefaults(Buffer.from('not gzip'))).toBeUndefined();
  });
});
