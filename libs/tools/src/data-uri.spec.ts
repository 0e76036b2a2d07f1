import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { buildDataUri, dataUriFileName, DataUriError, parseDataUri } from './data-uri.js';
import { detectFileKind, looksLikeText, safeFileName } from './file-kind.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const PNG_HEAD = Uint8Array.of(
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0,
  0,
  0,
  13,
  0x49,
  0x48,
  0x44,
  0x52,
  0,
  0,
  0,
  1,
  0,
  0,
  0,
  1,
  8,
  6,
  0,
  0,
  0,
);

describe('data: URIs', () => {
  it('reads Base64 and percent-encoded data with their media types', () => {
    const png = parseDataUri(`data:image/png;base64,${Buffer.from(PNG_HEAD).toString('base64')}`);
    expect(png).toMatchObject({ essence: 'image/png', mediaType: 'image/png', base64: true });
    expect(png.bytes).toEqual(PNG_HEAD);
    const hello = parseDataUri('data:text/plain;charset=UTF-8,Hello%2C%20W%C3%B6rld');
    expect(hello).toMatchObject({ essence: 'text/plain', charset: 'UTF-8', base64: false });
    expect(text(hello.bytes)).toBe('Hello, Wörld');
  });

  it('follows the browsers on defaults and odd headers', () => {
    expect(parseDataUri('data:,A%20brief%20note')).toMatchObject({ mediaType: 'text/plain;charset=US-ASCII' });
    expect(parseDataUri('data:;charset=utf-8,x').mediaType).toBe('text/plain;charset=utf-8');
    expect(parseDataUri('DATA:Image/SVG+XML;BASE64,PHN2Zy8+').essence).toBe('image/svg+xml');
    expect(text(parseDataUri('  data:text/plain;base64 , Zm9v \n').bytes)).toBe('foo');
    expect(parseDataUri('data:nonsense,x').mediaType).toBe('text/plain;charset=US-ASCII');
    expect(text(parseDataUri('data:,100%25%zz').bytes)).toBe('100%%zz');
  });

  it('takes a name parameter as the file name, safely', () => {
    const data = parseDataUri('data:application/pdf;name=Quarterly%20report.pdf;base64,JVBERi0=');
    expect(data.name).toBe('Quarterly report.pdf');
    expect(data.mediaType).toBe('application/pdf');
    expect(dataUriFileName(data)).toBe('Quarterly report.pdf');
    expect(dataUriFileName({ name: '../../etc/passwd', essence: 'text/plain' })).toBe('passwd');
    expect(dataUriFileName({ essence: 'image/png' })).toBe('image.png');
    expect(dataUriFileName({ essence: 'image/jpeg' })).toBe('image.jpg');
    expect(dataUriFileName({ essence: 'text/plain' })).toBe('text.txt');
    expect(dataUriFileName({ essence: 'application/octet-stream' }, 'zip')).toBe('file.zip');
    expect(dataUriFileName({ essence: 'application/x-unheard-of' })).toBe('file.bin');
  });

  it.each([
    ['', 'Paste a data URI: it starts with “data:”.'],
    ['https://example.com/a.png', 'A data URI starts with “data:”; this one starts with “https://exam…”.'],
    ['data:image/png;base64', 'The data URI has no comma: “data:[media type][;base64],data” needs one before the data.'],
    ['data:image/png;base64,iVBO!w0K', "The Base64 data is not valid: Invalid character '!' at position 27 of the URI."],
    ['data:image/png;base64,iVBO%21w0K', "The Base64 data is not valid: Invalid character '!' at position 5 of the data."],
    [
      'data:text/plain;base64,Zm9vY',
      'The Base64 data is not valid: The input ends with a single leftover character (a group needs at least 2) at position 28 of the URI.',
    ],
  ])('rejects %j clearly', (input, message) => {
    expect(() => parseDataUri(input)).toThrow(new DataUriError(message));
  });

  it('round trips any bytes in Base64 and in percent-encoding', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.constantFrom('base64', 'percent') as fc.Arbitrary<'base64' | 'percent'>,
        (bytes, encoding) => {
          const uri = buildDataUri(bytes, 'application/octet-stream', encoding);
          expect(uri).not.toMatch(/[\s#"<>]/);
          const back = parseDataUri(uri);
          expect(back.bytes).toEqual(bytes);
          expect(back.essence).toBe('application/octet-stream');
        },
      ),
    );
  });

  it('keeps text readable in percent-encoding', () => {
    expect(buildDataUri(new TextEncoder().encode('<svg width="1"/> #1 ü'), 'image/svg+xml', 'percent')).toBe(
      'data:image/svg+xml,%3Csvg%20width%3D%221%22/%3E%20%231%20%C3%BC'.replace('%3D', '='),
    );
  });
});

describe('file kinds', () => {
  it('detects binary formats by their magic numbers', async () => {
    expect(await detectFileKind(PNG_HEAD)).toEqual({ mime: 'image/png', ext: 'png', text: false });
    expect(await detectFileKind(new TextEncoder().encode('%PDF-1.7\n%âãÏÓ\n'))).toMatchObject({ mime: 'application/pdf', ext: 'pdf' });
    expect(await detectFileKind(Uint8Array.of(0, 1, 2, 3, 255))).toEqual({ mime: 'application/octet-stream', ext: 'bin', text: false });
  });

  it('detects text formats', async () => {
    const kind = async (s: string) => (await detectFileKind(new TextEncoder().encode(s))).ext;
    expect(await kind('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>')).toBe('svg');
    expect(await kind('<!doctype html><title>x</title>')).toBe('html');
    expect(await kind('{"a": [1, 2]}')).toBe('json');
    expect(await kind('{"a": [1, 2]')).toBe('txt');
    expect(await kind('Grüße, 世界 👋')).toBe('txt');
  });

  it('treats a UTF-8 character cut at the end of a sample as text', () => {
    const bytes = new TextEncoder().encode('ab👋');
    expect(looksLikeText(bytes.subarray(0, 4), true)).toBe(true);
    expect(looksLikeText(bytes.subarray(0, 4), false)).toBe(false);
    expect(looksLikeText(Uint8Array.of(0x61, 0x00))).toBe(false);
  });

  it('makes file names safe', () => {
    expect(safeFileName('C:\\Users\\me\\a<b>.txt')).toBe('a_b_.txt');
    expect(safeFileName('...')).toBe('file');
    expect(safeFileName(' report .pdf ')).toBe('report .pdf');
  });
});
