import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { editDistance, search } from './search';

const tools = [
  { name: 'Base64 encode', keywords: ['base64', 'encode'], description: 'Encode text to Base64.' },
  { name: 'Base64 decode', keywords: ['base64', 'decode'], description: 'Decode Base64.' },
  { name: 'YAML to JSON', keywords: ['yaml', 'json'], description: 'Convert YAML to JSON.' },
  { name: 'JSON to YAML', keywords: ['json', 'yaml'], description: 'Convert JSON to YAML.' },
  { name: 'Word count', keywords: ['words', 'text'], description: 'Count words.' },
];

describe('tool search', () => {
  it('finds by name and keyword, best first', () => {
    expect(search(tools, 'json').map((t) => t.name)).toEqual(['JSON to YAML', 'YAML to JSON']);
    expect(search(tools, 'base64 decode')[0]?.name).toBe('Base64 decode');
  });

  it('forgives small typos', () => {
    expect(search(tools, 'base46').map((t) => t.name)).toEqual(['Base64 decode', 'Base64 encode']);
    expect(search(tools, 'wrod count')[0]?.name).toBe('Word count');
  });

  it('finds a word by any beginning of it, inside longer words, and in the plural', () => {
    const codes = [
      { name: 'Barcode decoder', keywords: ['barcode', 'qr'], description: 'Read every barcode in an image.' },
      { name: 'WiFi barcode', keywords: ['wifi', 'qr'], description: 'A QR code that joins a Wi-Fi network.' },
      { name: 'Counter', keywords: ['tally'], description: 'Count things.' },
    ];
    for (const query of ['qr c', 'qr co', 'qr cod', 'qr code', 'qr codes']) {
      expect(
        search(codes, query)
          .map((t) => t.name)
          .sort(),
      ).toEqual(['Barcode decoder', 'WiFi barcode']);
    }
    expect(search(tools, 'paswo')).toEqual([]);
    expect(search([{ name: 'Password generator', keywords: [], description: '' }], 'paswo')).toHaveLength(1);
  });

  it('never drops a tool while its word is typed: each beginning of a word of a tool finds it (property)', () => {
    const vocabulary = (t: (typeof tools)[number]) =>
      [t.name, ...t.keywords, t.description].flatMap((x) => x.toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter(Boolean);
    fc.assert(
      fc.property(fc.constantFrom(...tools), fc.nat(), fc.nat(), fc.nat(), (tool, i, j, cut) => {
        const words = vocabulary(tool);
        const other = words[i % words.length]!;
        const word = words[j % words.length]!;
        const prefix = word.slice(0, 1 + (cut % word.length));
        const plural = word.length >= 3 ? [`${other} ${word}s`] : [];
        for (const query of [prefix, `${other} ${prefix}`, `${other} ${word}`, ...plural]) {
          expect(search(tools, query)).toContain(tool);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('finds nothing for unrelated or empty text', () => {
    expect(search(tools, 'spreadsheet')).toEqual([]);
    expect(search(tools, '   ')).toEqual([]);
  });

  it('edit distance is a metric on small strings (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (a, b) => {
        expect(editDistance(a, a)).toBe(0);
        expect(editDistance(a, b)).toBe(editDistance(b, a));
        expect(editDistance(a, b)).toBeLessThanOrEqual(Math.max(a.length, b.length));
      }),
    );
  });
});
