// Bounds how many uploads are parsed at once, so a burst of large snapshots cannot exhaust memory.
export interface Semaphore {
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function createSemaphore(limit: number): Semaphore {
  let active = 0;
  const waiting: Array<() => void> = [];
  return {
    async run(work) {
      if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      active += 1;
      try {
        return await work();
      } finally {
        active -= 1;
        waiting.shift()?.();
      }
    },
  };
}
