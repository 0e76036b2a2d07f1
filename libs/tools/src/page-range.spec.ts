import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { pagePixels, PageRangeError, parsePageRange } from './page-range.js';

describe('parsePageRange', () => {
  it('reads pages and ranges as print dialogs do', () => {
    expect(parsePageRange('', 4)).toEqual([1, 2, 3, 4]);
    expect(parsePageRange('all', 2)).toEqual([1, 2]);
    expect(parsePageRange('1-3, 5', 6)).toEqual([1, 2, 3, 5]);
    expect(parsePageRange('5-', 7)).toEqual([5, 6, 7]);
    expect(parsePageRange('-2', 7)).toEqual([1, 2]);
    expect(parsePageRange('3, 1, 3, 2–3', 3)).toEqual([3, 1, 2]);
  });

  it('says what is wrong', () => {
    expect(() => parsePageRange('9', 8)).toThrow(new PageRangeError('There is no page 9: this PDF has 8 pages.'));
    expect(() => parsePageRange('2', 1)).toThrow('There is no page 2: this PDF has 1 page.');
    expect(() => parsePageRange('0', 3)).toThrow('Pages are counted from 1.');
    expect(() => parsePageRange('abc', 3)).toThrow('"abc" is not a page or a range: write pages like 1-3, 5, 8-.');
    expect(() => parsePageRange('3-1', 3)).toThrow('"3-1" runs backwards: write the lower page first.');
    expect(() => parsePageRange(' , ', 3)).toThrow('Choose at least one page.');
  });

  it('gives only existing pages, each once (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 5 }))),
        (count, parts) => {
          const text = parts.map(([a, n]) => (n === 0 ? `${a}` : `${a}-${a + n}`)).join(',');
          try {
            const pages = parsePageRange(text, count);
            expect(new Set(pages).size).toBe(pages.length);
            expect(pages.every((p) => p >= 1 && p <= count)).toBe(true);
          } catch (error) {
            expect(error).toBeInstanceOf(PageRangeError);
          }
        },
      ),
    );
  });
});

it('page size in pixels at a resolution', () => {
  expect(pagePixels(595.28, 841.89, 72)).toEqual({ width: 595, height: 842 });
  expect(pagePixels(612, 792, 150)).toEqual({ width: 1275, height: 1650 });
});
