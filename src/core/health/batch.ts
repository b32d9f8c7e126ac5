// Job health from its conditions, CronJob health from its schedule record (as Argo CD's built-in checks).
import type { Health, KubeObject } from '../model/index.js';
import { field, listAt, statusConditions, stringAt } from './read.js';

export function jobHealth(obj: KubeObject): Health {
  let failed: string | undefined;
  let complete: string | undefined;
  let suspended: string | undefined;
  for (const condition of statusConditions(obj)) {
    if (condition.status !== 'True') continue;
    if (condition.type === 'Failed') failed = condition.message ?? condition.reason ?? 'Job failed';
    else if (condition.type === 'Complete') complete = condition.message ?? '';
    else if (condition.type === 'Suspended') suspended = condition.message ?? 'Job is suspended';
  }
  if (failed !== undefined) return { status: 'Degraded', message: failed };
  if (suspended !== undefined) return { status: 'Suspended', message: suspended };
  if (complete !== undefined) return { status: 'Healthy', message: complete || undefined };
  if (field(obj, 'spec', 'suspend') === true) return { status: 'Suspended', message: 'Job is suspended' };
  return { status: 'Progressing', message: 'Job is running' };
}

export function cronJobHealth(obj: KubeObject): Health {
  if (field(obj, 'spec', 'suspend') === true) return { status: 'Suspended', message: 'CronJob is suspended' };
  const lastSchedule = stringAt(obj, 'status', 'lastScheduleTime');
  const lastSuccess = stringAt(obj, 'status', 'lastSuccessfulTime');
  const running = listAt(obj, 'status', 'active').length > 0;
  if (!lastSchedule) return { status: 'Healthy', message: 'The CronJob has not been scheduled yet' };
  if (!lastSuccess) {
    return running
      ? { status: 'Progressing', message: 'The first run is in progress' }
      : { status: 'Degraded', message: 'The CronJob has not completed a run successfully' };
  }
  // RFC 3339 timestamps in UTC compare correctly as strings; Date keeps offsets honest.
  if (Date.parse(lastSchedule) > Date.parse(lastSuccess) && !running) {
    return { status: 'Degraded', message: 'The last scheduled run did not complete successfully' };
  }
  return { status: 'Healthy', message: 'The last run completed successfully' };
}
