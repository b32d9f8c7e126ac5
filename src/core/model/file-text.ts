// A repository file as the renderers hold it: path → string. A UTF-8 file is its text. A file that is
// not UTF-8 (a keystore, an image a ConfigMap carries) keeps its bytes, as base64 behind a mark no
// UTF-8 text starts with once read here (one that does is kept as bytes too), so every reader, cache
// and store passes it on as plain ASCII text, and a generator still writes its exact bytes.
import { isUtf8 } from 'node:buffer';

/** Two noncharacters and a word: what a file read as bytes starts with. */
const BYTES_MARK = '\uFDD0\uFDEFbytes:';

/** A file's bytes as the file map holds them: its text when it is UTF-8, else its bytes, marked. */
export function fileText(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = isUtf8(buffer) ? buffer.toString('utf8') : undefined;
  if (text !== undefined && !text.startsWith(BYTES_MARK)) return text;
  return BYTES_MARK + buffer.toString('base64');
}

/** A file of the file map: its text when its bytes are UTF-8, else the bytes themselves. */
export function fileContent(text: string): string | Uint8Array {
  if (!text.startsWith(BYTES_MARK)) return text;
  const bytes = Buffer.from(text.slice(BYTES_MARK.length), 'base64');
  return isUtf8(bytes) ? bytes.toString('utf8') : new Uint8Array(bytes);
}
