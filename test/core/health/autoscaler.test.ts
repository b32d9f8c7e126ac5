// HPA health as Argo CD judges it: degraded by type and reason; healthy only when an AbleToScale or
// ScalingLimited condition's status is True; otherwise waiting.
import { describe, expect, it } from 'vitest';
import { assessHealth } from '../../../src/core/health/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';

const c = (type: string, status: string, reason: string, message = 'm'): Record<string, string> => ({
  type,
  status,
  reason,
  message,
});
const hpa = (conditions: Array<Record<string, string>>): KubeObject => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'shop' },
  spec: {},
  status: { conditions },
});

describe('HorizontalPodAutoscaler health', () => {
  it.each([
    ['AbleToScale True', [c('AbleToScale', 'True', 'ReadyForNewScale')], 'Healthy'],
    ['ScalingLimited True', [c('ScalingLimited', 'True', 'TooFewReplicas')], 'Healthy'],
    ['ScalingLimited False', [c('ScalingLimited', 'False', 'DesiredWithinRange')], 'Progressing'],
    ['AbleToScale False, SucceededRescale', [c('AbleToScale', 'False', 'SucceededRescale')], 'Progressing'],
    ['FailedGetScale', [c('AbleToScale', 'False', 'FailedGetScale')], 'Degraded'],
    ['ScalingActive InvalidSelector', [c('ScalingActive', 'False', 'InvalidSelector')], 'Degraded'],
    [
      'a False condition first, then a True one',
      [c('ScalingActive', 'False', 'ScalingDisabled'), c('AbleToScale', 'True', 'x')],
      'Healthy',
    ],
    ['no conditions', [], 'Progressing'],
  ])('%s → %s', (_name, conditions, status) => {
    expect(assessHealth(hpa(conditions))?.status).toBe(status);
  });

  it("says it is waiting in Argo CD's words", () => {
    expect(assessHealth(hpa([]))).toEqual({ status: 'Progressing', message: 'Waiting to Autoscale' });
  });
});
