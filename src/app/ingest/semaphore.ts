// Bounds the bytes of snapshot documents being inflated and parsed at once, so a burst of large
// uploads cannot exhaust memory while many small ones still go through side by side.
export interface ByteBudget {
  /** Runs `work` once `weight` bytes fit in the budget; one job larger than the budget runs alone. */
  run<T>(weight: number, work: () => Promise<T>): Promise<T>;
}

export function createByteBudget(budget: number, maxConcurrent = Number.POSITIVE_INFINITY): ByteBudget {
  let inUse = 0;
  let running = 0;
  const waiting: Array<{ weight: number; start: () => void }> = [];
  const fits = (weight: number): boolean => running === 0 || (running < maxConcurrent && inUse + weight <= budget);
  const next = (): void => {
    // First in, first out: a large upload is not starved by a stream of small ones.
    while (waiting.length > 0 && fits(waiting[0].weight)) {
      const job = waiting.shift()!;
      inUse += job.weight;
      running += 1;
      job.start();
    }
  };
  return {
    async run(weight, work) {
      const cost = Math.max(1, Math.min(weight, budget));
      await new Promise<void>((start) => {
        waiting.push({ weight: cost, start });
        next();
      });
      try {
        return await work();
      } finally {
        inUse -= cost;
        running -= 1;
        next();
      }
    },
  };
}
