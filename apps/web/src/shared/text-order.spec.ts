import { describe, expect, it } from '@jest/globals';
import { SYMBOLOGIES } from '@tinkerdesk/tools/barcode-symbols';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareNames } from './text-order';

// Every tool's name, as its meta.ts writes it.
const toolsDir = fileURLToPath(new URL('../tools', import.meta.url));
const toolNames = readdirSync(toolsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && readdirSync(join(toolsDir, entry.name)).includes('meta.ts'))
  .map((entry) => /\bname: '([^']+)'/.exec(readFileSync(join(toolsDir, entry.name, 'meta.ts'), 'utf8'))?.[1])
  .filter((name): name is string => name !== undefined);

describe('compareNames', () => {
  it('orders the tools and the barcode types as localeCompare does', () => {
    expect(toolNames.length).toBeGreaterThan(20);
    for (const names of [toolNames, SYMBOLOGIES.map((s) => s.desc)]) {
      const expected = [...names].sort((a, b) => a.localeCompare(b));
      expect([...names].reverse().sort(compareNames)).toEqual(expected);
      expect([...names].sort(compareNames)).toEqual(expected);
    }
  });

  it('ignores case, then puts the capital first for names that differ only in case', () => {
    expect(['bcrypt', 'Base64', 'apple', 'Zebra'].sort(compareNames)).toEqual(['apple', 'Base64', 'bcrypt', 'Zebra']);
    expect(['qr', 'QR', 'Qr'].sort(compareNames)).toEqual(['QR', 'Qr', 'qr']);
    expect(compareNames('same', 'same')).toBe(0);
  });
});
