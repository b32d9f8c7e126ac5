// Pod health: phase, and containers stuck waiting (CrashLoopBackOff, ImagePullBackOff, ErrImagePull…).
import { isPlainObject, type Health, type KubeObject } from '../model/index.js';
import { findCondition, listAt, statusConditions, stringAt, field } from './read.js';

/** Waiting reasons that mean the container will not start without a change (Err*, *Error, *BackOff). */
function isStuckWaitingReason(reason: string): boolean {
  return reason.startsWith('Err') || reason.endsWith('Error') || reason.endsWith('BackOff');
}

function containerStatuses(
  obj: KubeObject,
  ...which: Array<'initContainerStatuses' | 'containerStatuses'>
): Record<string, unknown>[] {
  return which.flatMap((name) => listAt(obj, 'status', name)).filter(isPlainObject);
}

function failureMessage(status: Record<string, unknown>): string | undefined {
  const terminated = field(status, 'state', 'terminated');
  if (!isPlainObject(terminated)) return undefined;
  if (typeof terminated.message === 'string' && terminated.message) return terminated.message;
  if (terminated.exitCode !== 0 && terminated.exitCode !== undefined) {
    return `container "${String(status.name)}" failed with exit code ${String(terminated.exitCode)}`;
  }
  return undefined;
}

export function podHealth(obj: KubeObject): Health {
  const restartPolicy = stringAt(obj, 'spec', 'restartPolicy') ?? 'Always';
  const podMessage = stringAt(obj, 'status', 'message');
  // Only long-running pods: a one-shot pod (a hook, a Job's pod) waiting on an image is still
  // on its way, and calling it Degraded would fail it before the image exists.
  if (restartPolicy === 'Always') {
    const stuck = containerStatuses(obj, 'initContainerStatuses', 'containerStatuses').filter((status) => {
      const reason = stringAt(status, 'state', 'waiting', 'reason');
      return reason !== undefined && isStuckWaitingReason(reason);
    });
    if (stuck.length > 0) {
      const messages = stuck.map(
        (status) =>
          stringAt(status, 'state', 'waiting', 'message') ??
          `container "${String(status.name)}" is in ${stringAt(status, 'state', 'waiting', 'reason')}`,
      );
      return { status: 'Degraded', message: messages.join(', ') };
    }
  }
  switch (stringAt(obj, 'status', 'phase')) {
    case 'Pending':
      return { status: 'Progressing', message: podMessage };
    case 'Succeeded':
      return { status: 'Healthy', message: podMessage };
    case 'Failed': {
      if (podMessage) return { status: 'Degraded', message: podMessage };
      const message = containerStatuses(obj, 'initContainerStatuses', 'containerStatuses')
        .map(failureMessage)
        .find(Boolean);
      return { status: 'Degraded', message };
    }
    case 'Running': {
      // Pods that run to completion are hooks or batch work: still on their way while running.
      if (restartPolicy !== 'Always') return { status: 'Progressing', message: podMessage };
      if (findCondition(statusConditions(obj), 'Ready')?.status === 'True')
        return { status: 'Healthy', message: podMessage };
      const restarted = containerStatuses(obj, 'containerStatuses').some((status) =>
        isPlainObject(field(status, 'lastState', 'terminated')),
      );
      return { status: restarted ? 'Degraded' : 'Progressing', message: podMessage };
    }
    default:
      return { status: 'Unknown', message: podMessage };
  }
}
