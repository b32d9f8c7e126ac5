// Every upstream health fixture gets the verdict gitops-engine's health_test.go asserts
// (table in test/fixtures/upstream/README.md, section 2).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { assessHealth } from '../../../src/core/health/index.js';
import type { HealthStatus, KubeObject } from '../../../src/core/model/index.js';
import { readFixture } from '../../support/fixtures.js';

const EXPECTED: Array<[file: string, status: HealthStatus]> = [
  ['deployment-progressing.yaml', 'Progressing'],
  ['hpa-v2-healthy.yaml', 'Healthy'],
  ['hpa-v2-degraded.yaml', 'Degraded'],
  ['pod-running-restart-always.yaml', 'Healthy'],
  ['pod-crashloop.yaml', 'Degraded'],
  ['svc-loadbalancer.yaml', 'Healthy'],
  ['svc-clusterip.yaml', 'Healthy'],
  ['statefulset.yaml', 'Healthy'],
  ['job-succeeded.yaml', 'Healthy'],
  ['pvc-bound.yaml', 'Healthy'],
];

describe('health of the gitops-engine fixtures', () => {
  it.each(EXPECTED)('%s is %s', (file, status) => {
    const live = parse(readFixture('k8s-health', 'gitops-engine', file)) as KubeObject;
    expect(assessHealth(live).status).toBe(status);
  });

  it('explains a crash loop with the container message', () => {
    const live = parse(readFixture('k8s-health', 'gitops-engine', 'pod-crashloop.yaml')) as KubeObject;
    expect(assessHealth(live).message).toMatch(/back-off|restarting/i);
  });
});
