// The Application type the templatePatch check decodes into is generated from Argo CD's own Application
// CRD (argoproj/argo-cd manifests/crds/application-crd.yaml, Apache-2.0, a fixture byte for byte): the
// file in src is what the script writes from it, and it holds the CRD's fields with their Go types.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APPLICATION_SHAPES } from '../../../src/core/render/application-schema.generated.js';
import { generatedSource } from '../../../scripts/gen-application-schema.js';

const CRD = 'test/fixtures/upstream/argo-cd-applicationset/manifests/crds/application-crd.yaml';

describe('application-schema.generated.ts', () => {
  it('is what scripts/gen-application-schema.ts writes from the CRD fixture', () => {
    const written = readFileSync('src/core/render/application-schema.generated.ts', 'utf8');
    expect(written).toBe(generatedSource(readFileSync(CRD, 'utf8')));
  });

  it('holds the Go types of the CRD fields', () => {
    const spec = APPLICATION_SHAPES.spec as { fields: Record<string, unknown> };
    expect(Object.keys(spec.fields)).toEqual(
      expect.arrayContaining(['destination', 'project', 'source', 'sources', 'syncPolicy', 'ignoreDifferences']),
    );
    expect(spec.fields.revisionHistoryLimit).toBe('int64');
    expect(spec.fields.syncPolicy).toMatchObject({
      fields: { automated: { fields: { prune: 'bool' } }, syncOptions: { list: 'string' } },
    });
    expect(spec.fields.source).toMatchObject({ fields: { helm: { fields: { valuesObject: 'raw' } } } });
  });
});
