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
