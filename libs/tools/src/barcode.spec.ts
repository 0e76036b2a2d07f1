import { describe, expect, it } from '@jest/globals';
import bwipjs from 'bwip-js/node';
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

  it('says which check digit is right, for every symbology where bwip-js checks it', () => {
    const cases: Array<[string, string, string]> = [
      ['ean13', '4006381333933', 'The EAN-13 check digit should be 1, not 3 (4006381333931)'],
      ['ean13', '4006381333937 12', 'The EAN-13 check digit should be 1, not 7 (4006381333931 12)'],
      ['ean8', '96385075', 'The EAN-8 check digit should be 4, not 5 (96385074)'],
      ['upca', '036000291453', 'The UPC check digit should be 2, not 3 (036000291452)'],
      ['upce', '01234566', 'The UPC check digit should be 5, not 6 (01234565)'],
      ['itf14', '1 00 12345 67890 3', 'The ITF-14 check digit should be 2, not 3 (1 00 12345 67890 2)'],
      ['ean14', '(01)10012345678903', 'The EAN-14 check digit should be 2, not 3 ((01)10012345678902)'],
      ['isbn', '978-1-56619-909-3', 'The ISBN-13 check digit should be 4, not 3 (978-1-56619-909-4)'],
      ['isbn', '0-8044-2957-2', 'The ISBN-10 check digit should be X, not 2 (0-8044-2957-X)'],
      ['ismn', '979-0-2600-0043-1', 'The ISMN check digit should be 8, not 1 (979-0-2600-0043-8)'],
      ['ismn', 'M-2306-7118-2', 'The ISMN check digit should be 7, not 2 (M-2306-7118-7)'],
      ['issn', '0317-8472', 'The ISSN check digit should be 1, not 2 (0317-8471)'],
    ];
    for (const [bcid, text, message] of cases) {
      let thrown: unknown;
      try {
        bwipjs.toSVG({ bcid, text });
      } catch (error) {
        thrown = error;
      }
      expect(barcodeErrorMessage(thrown, text)).toBe(message);
      // The corrected number is one bwip-js takes.
      expect(() => bwipjs.toSVG({ bcid, text: message.slice(message.indexOf('(') + 1, -1) })).not.toThrow();
    }
  });

  it('agrees with bwip-js on the check digit of any EAN-13, EAN-8, UPC-A, UPC-E and ITF-14 (property)', () => {
    const shapes: Array<[string, number]> = [
      ['ean13', 12],
      ['ean8', 7],
      ['upca', 11],
      ['upce', 7],
      ['itf14', 13],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...shapes),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 13, maxLength: 13 }),
        fc.integer({ min: 1, max: 9 }),
        ([bcid, n], digits, shift) => {
          // UPC-E: number system 0, then six digits.
          const payload = bcid === 'upce' ? `0${digits.slice(0, 6).join('')}` : digits.slice(0, n).join('');
          const accepted = [...'0123456789'].filter((d) => {
            try {
              bwipjs.toSVG({ bcid, text: payload + d });
              return true;
            } catch {
              return false;
            }
          });
          expect(accepted).toHaveLength(1);
          const right = accepted[0]!;
          const wrong = String((Number(right) + shift) % 10);
          let thrown: unknown;
          try {
            bwipjs.toSVG({ bcid, text: payload + wrong });
          } catch (error) {
            thrown = error;
          }
          expect(barcodeErrorMessage(thrown, payload + wrong)).toMatch(`check digit should be ${right}, not ${wrong} (${payload}${right})`);
        },
      ),
      { numRuns: 100 },
    );
  });
});
