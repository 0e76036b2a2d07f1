import { expect, test } from '@jest/globals';
import { bytesToHex, codesToCsv, formatLabel, linkOf } from './barcode-read.js';

test('formats read as people name them', () => {
  expect(formatLabel('QRCode')).toBe('QR Code');
  expect(formatLabel('DataBarLtd')).toBe('GS1 DataBar Limited');
  expect(formatLabel('SomeNewFormat')).toBe('Some New Format');
});

test('raw bytes in hexadecimal', () => {
  expect(bytesToHex(new Uint8Array([0, 0x1f, 0xff]))).toBe('00 1f ff');
  expect(bytesToHex(new Uint8Array())).toBe('');
});

test('only http(s) web addresses are links', () => {
  expect(linkOf('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
  expect(linkOf(' HTTP://Example.com ')).toBe('http://example.com/');
  expect(linkOf('www.example.org/path')).toBe('https://www.example.org/path');
  for (const text of [
    'javascript:alert(1)',
    'data:text/html,x',
    'file:///etc/passwd',
    'https://',
    'hello world',
    'https://a b',
    'WIFI:S:x;;',
    '4006381333931',
  ])
    expect(linkOf(text)).toBeUndefined();
});

test('CSV of codes: header, quoting, formula-safe cells, optional time column', () => {
  const codes = [
    { format: 'QRCode', text: 'a,"b"\nc', bytesHex: '' },
    { format: 'Code128', text: '=SUM(A1)', bytesHex: '3d' },
  ];
  expect(codesToCsv(codes)).toBe('format,text,bytes\r\nQR Code,"a,""b""\nc",\r\nCode 128,"\'=SUM(A1)",3d\r\n');
  expect(codesToCsv(codes.slice(0, 1), ['2026-11-23 10:00'])).toBe('time,format,text,bytes\r\n2026-11-23 10:00,QR Code,"a,""b""\nc",\r\n');
});
