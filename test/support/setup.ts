// Property tests explore new cases on every local run; in CI (CI=true) they replay one fixed seed so a
// landing never depends on a lucky draw. FC_SEED=<n> replays any seed a failure printed.
import fc from 'fast-check';

const seed = process.env.FC_SEED ?? (process.env.CI ? '20261202' : undefined);
if (seed !== undefined) fc.configureGlobal({ seed: Number(seed) });
