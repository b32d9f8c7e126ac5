// A repository file in the file map: its text when it is UTF-8, else its exact bytes, as text every
// cache and store keeps unchanged.
import { describe, expect, it } from 'vitest';
import { fileContent, fileText } from '../../../src/core/model/index.js';

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
