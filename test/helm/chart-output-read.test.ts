// Helm's output of real charts (podinfo; WordPress with its MariaDB, Memcached and common subcharts) is
// read by the fast block-YAML reader, template by template, into the same objects the yaml library gives.
import { describe, expect, it } from 'vitest';
import { chartObjects, templatesOf, type ChartRequest } from '../../src/core/charts/index.js';
import { readBlockYaml } from '../../src/core/manifests/block-yaml.js';
import { lineStartsOf } from '../../src/core/model/index.js';
import { locateHelm } from '../../src/helm/locate.js';
import { helmTemplate } from '../../src/helm/run.js';
import { chartFiles } from '../support/charts.js';
import { pinnedHelm } from '../support/tools.js';
import { readBothWays, withLibraryReader } from '../support/yaml-readers.js';

const found = locateHelm({ HELM_BINARY: pinnedHelm(), PATH: '' });
if (!found.found) throw new Error(found.reason);
const helm = found.helm;

/** The chart fixture's files, relative to the chart; `common` also under each subchart that depends on it, as packaged. */
function chart(name: string): Map<string, string> {
  const files = new Map(
    [...chartFiles(`upstream/charts/${name}`, '.')].map(([path, text]) => [path.slice(2), text] as const),
  );
  for (const [path, text] of [...files])
    if (path.startsWith('charts/common/'))
      for (const sub of ['mariadb', 'memcached']) files.set(`charts/${sub}/${path}`, text);
  return files;
}

function rendered(name: string, values: string): string {
  const request: ChartRequest = {
    where: `charts/${name}`,
    chart: { type: 'files', files: chart(name) },
    releaseName: name,
    namespace: name,
    valueFiles: [values],
    set: [],
    kubeVersion: 'v1.33.1',
    apiVersions: [],
    includeCrds: true,
  };
  const output = helmTemplate(helm, request);
  if (!output.ok) throw new Error(output.reason);
  return output.manifest;
}

describe.each([
  ['podinfo', 'replicaCount: 2\n'],
  ['wordpress', 'replicaCount: 2\nmemcached:\n  enabled: true\n'],
])('the output of %s', (name, values) => {
  const manifest = rendered(name, values);

  it('is read template by template by the fast reader, as the yaml library reads it', () => {
    const templates = [...templatesOf(manifest)];
    expect(templates.length).toBeGreaterThan(1);
    for (const [template, text] of templates) {
      expect({
        template,
        fast: readBlockYaml(template, text, lineStartsOf(text), { type: 'resource' }) !== undefined,
      }).toEqual({ template, fast: true });
      const { fast, library } = readBothWays(template, text);
      expect(fast).toStrictEqual(library);
    }
  });

  it('gives the same objects and problems as the yaml library', () => {
    const input = {
      manifest,
      where: `charts/${name}`,
      releaseNamespace: name,
      origin: { origin: { type: 'resource' as const } },
    };
    const library = withLibraryReader(() => chartObjects(input));
    const fast = chartObjects(input);
    expect(fast.objects.length).toBeGreaterThan(1);
    expect(fast).toStrictEqual(library);
  });
});
