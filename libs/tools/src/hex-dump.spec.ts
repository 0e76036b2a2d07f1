import { describe, expect, it } from '@jest/globals';
import { hexDump } from './hex-dump.js';

describe('hexDump', () => {
  it('prints offsets, two groups of eight bytes and the printable characters', () => {
    const bytes = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x41);
    expect(hexDump(bytes)).toBe(
      [
        '00000000  89 50 4e 47 0d 0a 1a 0a  00 00 00 0d 49 48 44 52  |.PNG........IHDR|',
        '00000010  41                                                |A|',
      ].join('\n'),
    );
  });

  it('prints nothing for no bytes, and starts at the given offset', () => {
    expect(hexDump(new Uint8Array(0))).toBe('');
    expect(hexDump(Uint8Array.of(0x7e, 0x7f), 0x100)).toBe(`00000100  7e 7f${' '.repeat(45)}|~.|`);
  });
});
