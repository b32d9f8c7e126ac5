// Messages between the App and a job worker. The worker posts `{ type: 'ready' }` once its modules are
// loaded; then one request at a time, each answered by one reply with the same id.

export interface WorkerRequest {
  id: number;
  /** A task of src/app/worker/tasks.ts. */
  task: string;
  input: unknown;
  /** The task's wall-clock limit: a render's budget stops by itself at it. */
  timeLimitMs: number;
}

export type WorkerReply =
  | { type: 'ready' }
  /** The task's result, v8-serialized (transferred, not copied). */
  | { type: 'result'; id: number; result: ArrayBuffer }
  /** The result was larger than the output limit; it was not sent. */
  | { type: 'too-large'; id: number; bytes: number }
  | { type: 'error'; id: number; message: string };
