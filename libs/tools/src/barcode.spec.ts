import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  barcodeErrorMessage,
  ecFamily,
  isTwoDimensional,
  OptionsError,
  parseOptions,
  parseWifi,
  wifiPayload,
  type WifiSecurity,
} from './barcode.js';

describe('wifiPayload', () => {
  it('writes the ZXing WIFI: format', () => {
    expect(wifiPayload({ ssid: 'Home', password: 'secret pass', security: 'WPA', hidden: false })).toBe(
      'WIFI:T:WPA;S:Home;P:secret pass;;',
    );
    expect(wifiPayload({ ssid: 'Lab', password: 'password', security: 'SAE', hidden: true })).toBe('WIFI:T:SAE;S:Lab;P:password;H:true;;');
    expect(wifiPayload({ ssid: 'Coffee', password: 'ignored', security: 'nopass', hidden: false })).toBe('WIFI:T:nopass;S:Coffee;;');
  });

  it('escapes the reserved characters and quotes values that look like hex', () => {
    expect(wifiPayload({ ssid: 'a;b,c"d:e\\f', password: 'p;ss:w,rd"\\', security: 'WPA', hidden: false })).toBe(
      'WIFI:T:WPA;S:a\\;b\\,c\\"d\\:e\\\\f;P:p\\;ss\\:w\\,rd\\"\\\\;;',
    );
    expect(wifiPayload({ ssid: 'CAFE', password: '0123456789abcdef', security: 'WPA', hidden: false })).toBe(
      'WIFI:T:WPA;S:"CAFE";P:"0123456789abcdef";;',
    );
  });

  it('reads back what it writes, for any name and password', () => {
    const security = fc.constantFrom<WifiSecurity>('WPA', 'SAE', 'nopass');
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.string({ minLength: 8, maxLength: 63 }),
        security,
        fc.boolean(),
        (ssid, password, sec, hidden) => {
          fc.pre(new TextEncoder().encode(ssid).length <= 32);
          const back = parseWifi(wifiPayload({ ssid, password, security: sec, hidden }));
          expect(back).toEqual({ ssid, password: sec === 'nopass' ? '' : password, security: sec, hidden });
        },
      ),
    );
  });

  it('explains missing or impossible values', () => {
    expect(() => wifiPayload({ ssid: '', password: 'x', security: 'WPA', hidden: false })).toThrow('Enter the network name (SSID)');
    expect(() => wifiPayload({ ssid: 'a', password: '', security: 'WPA', hidden: false })).toThrow('Enter the password');
    expect(() => wifiPayload({ ssid: 'a', password: 'short', security: 'WPA', hidden: false })).toThrow('8 to 63 characters');
    expect(() => wifiPayload({ ssid: 'a', password: 'abcdef', security: 'WEP', hidden: false })).toThrow('A WEP key');
    expect(() => wifiPayload({ ssid: 'x'.repeat(33), password: 'password', security: 'WPA', hidden: false })).toThrow('at most 32 bytes');
  });
});

describe('barcode options', () => {
  it('parses BWIPP option text into flags and values', () => {
    expect(parseOptions(' includecheck  version=8x96 eclevel=H ')).toEqual({ includecheck: true, version: '8x96', eclevel: 'H' });
    expect(parseOptions('')).toEqual({});
    expect(() => parseOptions('bad-option')).toThrow(OptionsError);
    expect(() => parseOptions('a=b c=')).toThrow(OptionsError);
  });

  it('knows which symbologies have error-correction levels and which are 2D', () => {
    expect(ecFamily('qrcode')).toBe('qr');
    expect(ecFamily('pdf417')).toBe('pdf417');
    expect(ecFamily('micropdf417')).toBeUndefined();
    expect(ecFamily('azteccode')).toBe('aztec');
    expect(ecFamily('code128')).toBeUndefined();
    expect(isTwoDimensional('datamatrix')).toBe(true);
    expect(isTwoDimensional('ean13')).toBe(false);
  });

  it('keeps the words of bwip-js errors', () => {
    expect(barcodeErrorMessage(new Error('bwipp.ean13badLength#6878: EAN-13 must be 12 or 13 digits'))).toBe(
      'EAN-13 must be 12 or 13 digits',
    );
    expect(barcodeErrorMessage('bwip-js.unknownEncoder: foo')).toBe('foo');
  });
});
