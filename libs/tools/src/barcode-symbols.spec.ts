import { describe, expect, it } from '@jest/globals';
import { symbolList } from 'bwip-js';
import { SYMBOLOGIES } from './barcode-symbols.js';

describe('SYMBOLOGIES', () => {
  it('is exactly the list of the installed bwip-js (every symbology it supports)', () => {
    expect(SYMBOLOGIES).toEqual(symbolList.map(({ bcid, desc, text, opts }) => ({ bcid, desc, text, opts })));
    expect(SYMBOLOGIES.length).toBeGreaterThanOrEqual(100);
  });
});
