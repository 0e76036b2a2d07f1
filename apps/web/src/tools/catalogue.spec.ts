import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { meta as annotatedImage } from './annotated-image/meta';
import { meta as barcodeCreator } from './barcode-creator/meta';
import { meta as barcodeDecoder } from './barcode-decoder/meta';
import { meta as barcodeScanner } from './barcode-scanner/meta';
import { meta as base64Decode } from './base64-decode/meta';
import { meta as base64Encode } from './base64-encode/meta';
import { meta as bytesHuman } from './bytes-human/meta';
import { meta as composition } from './composition/meta';
import { meta as counter } from './counter/meta';
import { meta as dataUriFromFile } from './data-uri-from-file/meta';
import { meta as dataUriToFile } from './data-uri-to-file/meta';
import { meta as epub } from './epub/meta';
import { meta as guidGenerator } from './guid-generator/meta';
import { meta as jsonYaml } from './json-yaml/meta';
import { meta as markdownHtml } from './markdown-html/meta';
import { meta as passwordGenerator } from './password-generator/meta';
import { meta as pdfImage } from './pdf-image/meta';
import { meta as rot13Decode } from './rot13-decode/meta';
import { meta as rot13Encode } from './rot13-encode/meta';
import { meta as svgImage } from './svg-image/meta';
import { meta as walletPass } from './wallet-pass/meta';
import { meta as wifiBarcode } from './wifi-barcode/meta';
import { meta as wordCount } from './word-count/meta';
import { meta as yamlJson } from './yaml-json/meta';
import { CATEGORIES } from './categories';
import { search } from './search';
import type { ToolMeta } from './types';

// The registry itself uses Vite's import.meta.glob; here every meta.ts is imported by hand so the
// catalogue can be checked against the list of tool routes below (SPEC_ROUTES) without a bundler.
const METAS: ToolMeta[] = [
  annotatedImage,
  barcodeCreator,
  barcodeDecoder,
  barcodeScanner,
  base64Decode,
  base64Encode,
  bytesHuman,
  composition,
  counter,
  dataUriFromFile,
  dataUriToFile,
  epub,
  guidGenerator,
  jsonYaml,
  markdownHtml,
  passwordGenerator,
  pdfImage,
  rot13Decode,
  rot13Encode,
  svgImage,
  walletPass,
  wifiBarcode,
  wordCount,
  yamlJson,
];
const FOLDERS = [
  'annotated-image',
  'barcode-creator',
  'barcode-decoder',
  'barcode-scanner',
  'base64-decode',
  'base64-encode',
  'bytes-human',
  'composition',
  'counter',
  'data-uri-from-file',
  'data-uri-to-file',
  'epub',
  'guid-generator',
  'json-yaml',
  'markdown-html',
  'password-generator',
  'pdf-image',
  'rot13-decode',
  'rot13-encode',
  'svg-image',
  'wallet-pass',
  'wifi-barcode',
  'word-count',
  'yaml-json',
];

const SPEC_ROUTES = [
  '/tools/converters/data-uri-url/from-image-or-file/',
  '/tools/converters/data-uri-url/to-image-or-file/',
  '/tools/converters/base64/encode/',
  '/tools/converters/base64/decode/',
  '/tools/converters/size-in-bytes-as-human-readable-text/',
  '/tools/converters/markdown/html/',
  '/tools/converters/yaml/json/',
  '/tools/converters/json/yaml/',
  '/tools/converters/rot13/encode/',
  '/tools/converters/rot13/decode/',
  '/tools/converters/pdf/image/',
  '/tools/converters/svg/image/',
  '/compositions/new/',
  '/compositions/annotated/new',
  '/tools/counters/new/',
  '/tools/passwordgenerator/',
  '/tools/guidgenerator/',
  '/tools/wallet/google/',
  '/tools/barcodes/scanner/',
  '/tools/barcodes/decoder/',
  '/tools/displaybarcode/',
  '/tools/displaybarcode/wifi/',
  '/tools/wordcount/',
  '/tools/epub/',
];

const names = (query: string) => search(METAS, query).map((t) => t.name);

describe('tool catalogue', () => {
  it('has exactly the agreed tool routes, each once', () => {
    expect(METAS.map((m) => m.path).sort()).toEqual([...SPEC_ROUTES].sort());
  });

  it('names each tool after its folder, with a known category and real content', () => {
    expect(METAS.map((m) => m.id)).toEqual(FOLDERS);
    expect(new Set(METAS.map((m) => m.name)).size).toBe(METAS.length);
    for (const meta of METAS) {
      expect(CATEGORIES).toContain(meta.category);
      expect(meta.description.length).toBeGreaterThan(20);
      expect(meta.keywords.length).toBeGreaterThan(0);
      for (const r of meta.resources ?? []) expect(r.url).toMatch(/^https:\/\//);
    }
  });

  it('search finds the right tools on the real catalogue', () => {
    expect(names('base64').slice(0, 2).sort()).toEqual(['Base64 decode', 'Base64 encode']);
    expect(names('base46').slice(0, 2).sort()).toEqual(['Base64 decode', 'Base64 encode']);
    expect(names('json').slice(0, 2).sort()).toEqual(['JSON to YAML', 'YAML to JSON']);
    expect(names('guid')[0]).toBe('GUID generator');
    expect(names('uuid')[0]).toBe('GUID generator');
    expect(names('pasword')[0]).toBe('Password generator');
    expect(names('qr code')).toEqual(expect.arrayContaining(['Barcode creator', 'WiFi barcode']));
    expect(names('markdown html')[0]).toBe('Markdown to HTML');
    expect(names('spreadsheet macros')).toEqual([]);
  });

  it('knows the words people search with: b64, jwt, hex', () => {
    expect(names('b64').slice(0, 2).sort()).toEqual(['Base64 decode', 'Base64 encode']);
    expect(names('jwt')).toEqual(['Base64 decode']);
    expect(names('hex').sort()).toEqual(['Base64 decode', 'Data URI to image or file']);
    expect(names('base64url').slice(0, 2).sort()).toEqual(['Base64 decode', 'Base64 encode']);
  });

  it('finds the same QR code tools at every step of typing "qr codes"', () => {
    const all = names('qr codes');
    expect(all).toEqual(expect.arrayContaining(['Barcode creator', 'Barcode decoder', 'Barcode scanner', 'WiFi barcode']));
    for (let end = 'qr c'.length; end <= 'qr codes'.length; end++) {
      expect(names('qr codes'.slice(0, end))).toEqual(expect.arrayContaining(all));
    }
  });

  it("typing any tool's name, keyword or phrase letter by letter never hides a tool the whole text finds by its words (property)", () => {
    const phrases = METAS.flatMap((m) => [m.name, ...m.keywords]);
    fc.assert(
      fc.property(fc.constantFrom(...phrases), fc.nat(), (phrase, cut) => {
        const typed = phrase.slice(0, 1 + (cut % phrase.length));
        if (!typed.trim()) return;
        const byWords = search(METAS, phrase, { typos: false }).map((t) => t.name);
        expect(names(typed)).toEqual(expect.arrayContaining(byWords));
      }),
      { numRuns: 1000 },
    );
  });
});
