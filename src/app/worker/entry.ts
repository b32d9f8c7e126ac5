// A job worker: runs the tasks the App hands it (a job's render, a template override) one at a time,
// each a function of core values, and sends back the result serialized, or says it was too large.
// The App kills this thread when a task runs past its time limit or its heap fills up.
import { parentPort, workerData } from 'node:worker_threads';
import { serialize } from 'node:v8';
import type { WorkerReply, WorkerRequest } from '../isolation/protocol.js';
import { runTask } from './tasks.js';

const port = parentPort!;
const { outputBytes } = workerData as { outputBytes: number };

function reply(message: WorkerReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

port.on('message', (request: WorkerRequest) => {
  let result: Buffer;
  try {
    result = serialize(runTask(request.task, request.input, request.timeLimitMs));
  } catch (error) {
    return reply({ type: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) });
  }
  if (result.byteLength > outputBytes) return reply({ type: 'too-large', id: request.id, bytes: result.byteLength });
  const buffer = result.buffer.slice(result.byteOffset, result.byteOffset + result.byteLength) as ArrayBuffer;
  reply({ type: 'result', id: request.id, result: buffer }, [buffer]);
});
reply({ type: 'ready' });
