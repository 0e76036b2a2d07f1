import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Base64Decoder, Base64Encoder, Base64Error, decodeBase64, encodeBase64, looksLikeJwt } from './base64.js';

const utf8 = new TextEncoder();
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('Base64 encoding', () => {
  // RFC 4648, section 10 (test vectors).
  it.each([
    ['', ''],
    ['f', 'Zg=='],
    ['fo', 'Zm8='],
    ['foo', 'Zm9v'],
    ['foob', 'Zm9vYg=='],
    ['fooba', 'Zm9vYmE='],
    ['foobar', 'Zm9vYmFy'],
  ])('RFC 4648 vector %j → %j, and back', (plain, encoded) => {
    expect(encodeBase64(utf8.encode(plain))).toBe(encoded);
    expect(text(decodeBase64(encoded))).toBe(plain);
    expect(text(decodeBase64(encoded.replace(/=+$/, '')))).toBe(plain);
  });

  it('encodes UTF-8 exactly, emoji and other astral characters included', () => {
    expect(encodeBase64(utf8.encode('€'))).toBe('4oKs');
    expect(encodeBase64(utf8.encode('👋🏽 𝄞'))).toBe('8J+Ri/Cfj70g8J2Eng==');
    expect(text(decodeBase64('8J+Ri/Cfj70g8J2Eng=='))).toBe('👋🏽 𝄞');
  });

  it('uses the URL-safe alphabet and leaves out padding when asked', () => {
    const bytes = Uint8Array.of(0xfb, 0xff, 0xbf, 0xfe);
    expect(encodeBase64(bytes)).toBe('+/+//g==');
    expect(encodeBase64(bytes, { alphabet: 'url' })).toBe('-_-__g==');
    expect(encodeBase64(bytes, { alphabet: 'url', padding: false })).toBe('-_-__g');
  });

  it('breaks lines at the chosen width, across chunk boundaries too', () => {
    const bytes = new Uint8Array(100).map((_, i) => i);
    const whole = encodeBase64(bytes);
    const wrapped = encodeBase64(bytes, { lineLength: 76 });
    expect(wrapped.split('\n').map((l) => l.length)).toEqual([76, 60]);
    expect(wrapped.replace(/\n/g, '')).toBe(whole);
    const encoder = new Base64Encoder({ lineLength: 4 });
    const streamed = [bytes.subarray(0, 3), bytes.subarray(3, 7), bytes.subarray(7)].map((c) => encoder.push(c)).join('') + encoder.flush();
    expect(streamed).toBe(whole.match(/.{1,4}/g)!.join('\n'));
  });

  it('streams: any split of the input gives the same text as encoding it at once', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(300), { maxLength: 5 }), fc.boolean(), (bytes, cuts, url) => {
        const options = { alphabet: url ? ('url' as const) : ('standard' as const) };
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const encoder = new Base64Encoder(options);
        let out = '';
        let from = 0;
        for (const p of [...points, bytes.length]) {
          out += encoder.push(bytes.subarray(from, p));
          from = p;
        }
        out += encoder.flush();
        expect(out).toBe(encodeBase64(bytes, options));
        const reference = Buffer.from(bytes).toString(url ? 'base64url' : 'base64');
        expect(out).toBe(reference.padEnd(Math.ceil(reference.length / 4) * 4, '='));
      }),
    );
  });
});

describe('Base64 decoding', () => {
  it('round trips any bytes, in both alphabets, with and without padding and line breaks', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 500 }),
        fc.constantFrom('standard', 'url'),
        fc.boolean(),
        fc.constantFrom(0, 4, 64, 76),
        (bytes, alphabet, padding, lineLength) => {
          const encoded = encodeBase64(bytes, { alphabet, padding, lineLength });
          expect(decodeBase64(encoded)).toEqual(bytes);
          expect(decodeBase64(encoded, { alphabet })).toEqual(bytes);
        },
      ),
    );
  });

  it('round trips any text through UTF-8', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => expect(text(decodeBase64(encodeBase64(utf8.encode(s))))).toBe(s)));
  });

  it('decodes any split of the input the same way', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(400), fc.nat(400), (bytes, a, b) => {
        const encoded = encodeBase64(bytes, { lineLength: 10 });
        const [x, y] = [a % (encoded.length + 1), b % (encoded.length + 1)].sort((p, q) => p - q);
        const decoder = new Base64Decoder();
        const parts = [
          decoder.push(encoded.slice(0, x)),
          decoder.push(encoded.slice(x, y)),
          decoder.push(encoded.slice(y)),
          decoder.finish(),
        ];
        expect(Buffer.concat(parts)).toEqual(Buffer.from(bytes));
      }),
    );
  });

  it('skips whitespace anywhere and accepts missing padding', () => {
    expect(text(decodeBase64(' Zm9v\r\nYmE \t'))).toBe('fooba');
    expect(text(decodeBase64('Zm9vYg'))).toBe('foob');
    expect(text(decodeBase64('Zm9vYg='))).toBe('foob');
  });

  function failure(input: string, options = {}): Base64Error {
    try {
      decodeBase64(input, options);
    } catch (error) {
      if (error instanceof Base64Error) return error;
      throw error;
    }
    throw new Error(`decoding ${JSON.stringify(input)} did not fail`);
  }

  it('reports an invalid character with its position, line and column', () => {
    const e = failure('Zm9v\nYm!h');
    expect(e.message).toBe("Invalid character '!' at position 8 (line 2, column 3).");
    expect([e.index, e.line, e.column]).toEqual([7, 2, 3]);
    expect(failure('Zm9v\r\nYmFy\r\n\u00e9').message).toBe("Invalid character 'é' at position 13 (line 3, column 1).");
    expect(failure('Zm9v😀').message).toBe("Invalid character '😀' at position 5 (line 1, column 5).");
    expect(failure('Zm\u0000v').message).toBe('Invalid character U+0000 at position 3 (line 1, column 3).');
  });

  it('reports padding in the wrong place and data after padding', () => {
    expect(failure('Zm9v=').message).toBe("Unexpected padding '=' at position 5 (line 1, column 5).");
    expect(failure('Z=').message).toBe("Unexpected padding '=' at position 2 (line 1, column 2).");
    expect(failure('Zm9=a').message).toBe("Unexpected character 'a' after the padding at position 5 (line 1, column 5).");
    expect(failure('Zm9==').message).toBe("Too much padding '=' at position 5 (line 1, column 5).");
    expect(failure('Zg===').message).toBe("Too much padding '=' at position 5 (line 1, column 5).");
  });

  it('reports a lone last character where it is', () => {
    expect(failure('Zm9vY').message).toBe(
      'The input ends with a single leftover character (a group needs at least 2) at position 5 (line 1, column 5).',
    );
    expect(failure('Zm9v\n  Y \n').message).toMatch(/at position 8 \(line 2, column 3\)\.$/);
  });

  it('rejects mixed alphabets, and the wrong one when an alphabet is chosen', () => {
    expect(failure('ab+/ab-_').message).toBe(
      "Character '-' is from the URL-safe (-_) alphabet, but the input uses the standard (+/) one at position 7 (line 1, column 7).",
    );
    expect(failure('ab-_', { alphabet: 'standard' }).message).toMatch(/^Character '-' is from the URL-safe/);
    expect(failure('ab+/', { alphabet: 'url' }).message).toMatch(/^Character '\+' is from the standard/);
    const decoder = new Base64Decoder();
    decoder.push('ab_c');
    expect(decoder.detectedAlphabet).toBe('url');
  });

  it('keeps positions right across chunks', () => {
    const decoder = new Base64Decoder();
    decoder.push('Zm9v\nYm');
    expect(() => decoder.push('Fy\n?')).toThrow("Invalid character '?' at position 11 (line 3, column 1).");
  });
});

describe('looksLikeJwt', () => {
  const jwt =
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSIsImlhdCI6MTUxNjIzOTAyMn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
  it('knows a compact JWT, whose parts decode as Base64url', () => {
    expect(looksLikeJwt(jwt)).toBe(true);
    expect(looksLikeJwt(`  ${jwt}\n`)).toBe(true);
    expect(new TextDecoder().decode(decodeBase64(jwt.split('.')[1]!))).toBe('{"sub":"1234567890","name":"Ada","iat":1516239022}');
    expect(() => decodeBase64(jwt)).toThrow("Invalid character '.'");
  });
  it('does not take other text for one', () => {
    for (const text of ['SGVsbG8=', 'a.b.c', 'eyJ.', 'example.com', jwt.replace('.', ' ')]) expect(looksLikeJwt(text)).toBe(false);
  });
});
