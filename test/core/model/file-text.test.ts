// A repository file in the file map: its text when it is UTF-8, else its exact bytes, as text every
// cache and store keeps unchanged.
import { describe, expect, it } from 'vitest';
import { fileContent, fileText, notReadFile, notReadReason, whyNotRead } from '../../../src/core/model/index.js';

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

describe('files as the file map holds them', () => {
  it('holds UTF-8 as its text, NUL bytes and a byte order mark included', () => {
    const text = '\uFEFFgrüß dich ✓\n\0';
    expect(fileText(Buffer.from(text, 'utf8'))).toBe(text);
    expect(fileContent(text)).toBe(text);
  });

  it('holds bytes that are not UTF-8 as those bytes, in text that survives UTF-8 storage', () => {
    const binary = bytes(0xff, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0xc0, 0x00, 0xed, 0xa0, 0x80);
    const held = fileText(binary);
    expect(Buffer.from(held, 'utf8').toString('utf8')).toBe(held);
    expect(fileContent(held)).toEqual(binary);
  });

  it('keeps a UTF-8 file that starts like held bytes as its own text', () => {
    const tricky = fileText(bytes(0xff)).slice(0, -4) + 'not base64 at all';
    expect(fileContent(fileText(Buffer.from(tricky, 'utf8')))).toBe(tricky);
  });
});

describe('a file a reader did not fetch', () => {
  it('holds why, which a render reports; a file read holds none', () => {
    const reason = notReadReason(6 * 1024 * 1024, { file: 4 * 1024 * 1024 });
    expect(reason).toBe('it is 6 MiB, over the 4 MiB driftback reads of one file: make it smaller or take it out');
    expect(whyNotRead(notReadFile(reason))).toBe(reason);
    expect(whyNotRead('kind: ConfigMap\n')).toBeUndefined();
    expect(whyNotRead(fileText(bytes(0xff)))).toBeUndefined();
  });

  it('says the job budget in bytes or MiB', () => {
    expect(notReadReason(10, { job: 1000 })).toContain('would pass 1000 bytes, its budget');
    expect(notReadReason(10, { job: 512 * 1024 * 1024 })).toContain('would pass 512 MiB, its budget');
  });

  it('keeps a UTF-8 file that starts like a file not read as its own text, never as one not read', () => {
    const tricky = notReadFile('made up');
    const held = fileText(Buffer.from(tricky, 'utf8'));
    expect(whyNotRead(held)).toBeUndefined();
    expect(fileContent(held)).toBe(tricky);
  });
});
