import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { readSettings, setting } from './url-settings';

const schema = {
  alphabet: setting.choice(['standard', 'url'] as const, 'standard'),
  padding: setting.flag(true),
  wrap: setting.integer(0, 0, 1000),
  name: setting.text('', 10),
};

describe('settings in the URL', () => {
  it('reads values and falls back to the defaults', () => {
    expect(readSettings(schema, new URLSearchParams(''))).toEqual({ alphabet: 'standard', padding: true, wrap: 0, name: '' });
    expect(readSettings(schema, new URLSearchParams('alphabet=url&padding=0&wrap=76&name=abc'))).toEqual({
      alphabet: 'url',
      padding: false,
      wrap: 76,
      name: 'abc',
    });
  });

  it('ignores values that do not parse', () => {
    expect(readSettings(schema, new URLSearchParams('alphabet=hex&padding=maybe&wrap=1e3&name=far-too-long-a-name'))).toEqual({
      alphabet: 'standard',
      padding: true,
      wrap: 0,
      name: '',
    });
    expect(readSettings(schema, new URLSearchParams('wrap=1001')).wrap).toBe(0);
    expect(readSettings(schema, new URLSearchParams('wrap=-1')).wrap).toBe(0);
  });

  it('format then parse is the identity for every valid value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.boolean(), (wrap, padding) => {
        const params = new URLSearchParams({ wrap: schema.wrap.format(wrap), padding: schema.padding.format(padding) });
        const read = readSettings(schema, params);
        return read.wrap === wrap && read.padding === padding;
      }),
    );
  });
});
