// A repository file as the renderers hold it: path → string. A UTF-8 file is its text. A file that is
// not UTF-8 (a keystore, an image a ConfigMap carries) keeps its bytes, as base64 behind a mark no
// UTF-8 text starts with once read here (one that does is kept as bytes too), so every reader, cache
// and store passes it on as plain ASCII text, and a generator still writes its exact bytes. A file a
// reader did not fetch (too large for the job) holds why, behind another mark, so a render that reads
// it reports that instead of reading a file that is not there.
import { isUtf8 } from 'node:buffer';

/** Two noncharacters: what every mark starts with (a text that starts with a mark is kept as bytes). */
const MARK = '\uFDD0\uFDEF';
/** What a file read as bytes starts with. */
const BYTES_MARK = `${MARK}bytes:`;
/** What a file left unread starts with, before the reason. */
const NOT_READ_MARK = `${MARK}not-read:`;

/** A file's bytes as the file map holds them: its text when it is UTF-8, else its bytes, marked. */
export function fileText(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = isUtf8(buffer) ? buffer.toString('utf8') : undefined;
  if (text !== undefined && !text.startsWith(BYTES_MARK) && !text.startsWith(NOT_READ_MARK)) return text;
  return BYTES_MARK + buffer.toString('base64');
}

/** A file of the file map: its text when its bytes are UTF-8, else the bytes themselves. */
export function fileContent(text: string): string | Uint8Array {
  if (!text.startsWith(BYTES_MARK)) return text;
  const bytes = Buffer.from(text.slice(BYTES_MARK.length), 'base64');
  return isUtf8(bytes) ? bytes.toString('utf8') : new Uint8Array(bytes);
}

/** A file the reader did not fetch, as the file map holds it: `reason` (from notReadReason) says why. */
export function notReadFile(reason: string): string {
  return NOT_READ_MARK + reason;
}

/** Why a file of the file map was not read; undefined for a file that was. */
export function whyNotRead(text: string): string | undefined {
  return text.startsWith(NOT_READ_MARK) ? text.slice(NOT_READ_MARK.length) : undefined;
}

const mib = (bytes: number): string =>
  bytes < 1024 * 1024 ? `${bytes} bytes` : `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/** Why a reader left a file unread: larger than one file may be, or than what the job has left to read. */
export function notReadReason(bytes: number, limit: { file: number } | { job: number }): string {
  if ('file' in limit)
    return `it is ${mib(bytes)}, over the ${mib(limit.file)} driftback reads of one file: make it smaller or take it out`;
  return `the files this job reads would pass ${mib(limit.job)}, its budget: split the cluster path or remove what it should not read`;
}
