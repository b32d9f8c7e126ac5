// A render a job limit stopped is not run again for the same inputs: the next snapshot with the same
// HEAD and live state repeats the message and says when it is tried again, without rendering; a
// changed live state, or the hour passing, tries again.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_JOB_LIMITS } from '../../src/app/isolation/index.js';
import { readClusterState } from '../../src/app/reconcile/state.js';
import { drain, startAppHarness, uploadSnapshot, type AppHarness } from '../support/app.js';
import { appliedObjects, CLUSTER, gitopsRepository, scaled, snapshotOf } from './live.js';

let harness: AppHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const STOPPED = 'render stopped: its result is larger than';

describe('a render stopped by a job limit', () => {
  it('is remembered for its inputs: not rendered again within the hour unless HEAD or the live state changes', async () => {
    let clock = new Date('2026-12-02T03:06:00Z');
    const files = gitopsRepository();
    // A result limit no render fits under: every render of this repository is stopped.
    const jobLimits = { ...DEFAULT_JOB_LIMITS, outputBytes: 1024 };
    const h = (harness = await startAppHarness({ files, now: () => clock, env: { jobLimits } }));
    const live = appliedObjects(files);
    const uploadAt = async (capturedAt: string, items = live) => {
      clock = new Date(Date.parse(capturedAt) + 60_000);
      expect((await uploadSnapshot(h, snapshotOf(h.repository, items, capturedAt))).status).toBe(202);
      await drain(h);
      return readClusterState(h.app.store, h.repository, CLUSTER);
    };

    const first = await uploadAt('2026-12-02T03:05:00Z');
    expect(first.outcome).toEqual({ type: 'manifest-problems', message: expect.stringContaining(STOPPED) });
    expect(first.limitStopped?.at).toBe('2026-12-02T03:06:00.000Z');

    // The same HEAD and live state, a new capture time: the message again, and when it is tried again.
    const same = await uploadAt('2026-12-02T03:10:00Z');
    expect(same.outcome?.message).toContain(STOPPED);
    expect(same.outcome?.message).toContain(
      'not rendered again with the same HEAD and live state: tried again at 04:06 UTC, or at once when either changes',
    );
    expect(same.limitStopped?.at).toBe(first.limitStopped?.at);

    // A hand scale changes the live state: rendered (and stopped) again, remembered from now.
    const changed = await uploadAt('2026-12-02T03:15:00Z', scaled(live, 'frontend', 5));
    expect(changed.outcome?.message).not.toContain('not rendered again');
    expect(changed.limitStopped?.at).toBe('2026-12-02T03:16:00.000Z');

    // An hour later the same inputs are tried again (a time limit may have been a busy machine).
    const later = await uploadAt('2026-12-02T04:20:00Z', scaled(live, 'frontend', 5));
    expect(later.outcome?.message).not.toContain('not rendered again');
    expect(later.limitStopped?.at).toBe('2026-12-02T04:21:00.000Z');
  });
});
