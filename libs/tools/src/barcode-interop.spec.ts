import { beforeAll, expect, test } from '@jest/globals';
import bwipjs from 'bwip-js/node';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { ZXING_DOES_NOT_READ, ZXING_READS } from './barcode-interop.js';
import { SYMBOLOGIES } from './barcode-symbols.js';
import { parseOptions } from './barcode.js';

// Every symbology of the creator drawn by bwip-js with its sample data and options (as the creator's
// worker does), then read by ZXing-C++ (as the decoder's worker does): the text must come back as listed.
const require = createRequire(import.meta.url);

beforeAll(async () => {
  const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  await prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
    fireImmediately: true,
  });
});

async function drawAndRead(bcid: string) {
  const symbol = SYMBOLOGIES.find((s) => s.bcid === bcid)!;
  const png = await bwipjs.toBuffer({
    ...parseOptions(symbol.opts),
    bcid,
    text: symbol.text,
    scale: 3,
    paddingwidth: 10,
    paddingheight: 10,
    backgroundcolor: 'FFFFFF',
  } as unknown as Parameters<typeof bwipjs.toBuffer>[0]);
  const results = await readBarcodes(new Uint8Array(png), { formats: [], tryHarder: true, eanAddOnSymbol: 'Read' });
  return { symbol, read: results.filter((r) => r.isValid) };
}

test('every symbology is either read by ZXing or listed as not readable, never both', () => {
  const listed = [...Object.keys(ZXING_READS), ...ZXING_DOES_NOT_READ].sort();
  expect(listed).toEqual(SYMBOLOGIES.map((s) => s.bcid).sort());
});

test.each(Object.entries(ZXING_READS))('%s drawn by bwip-js reads back with ZXing', async (bcid, expected) => {
  const { symbol, read } = await drawAndRead(bcid);
  expect(read.map((r) => ({ format: r.format, text: r.text }))).toEqual([{ format: expected.format, text: expected.text ?? symbol.text }]);
});

test.each(ZXING_DOES_NOT_READ.filter((b) => !['codablockf', 'hibccodablockf', 'gs1-cc', 'gs1-128composite'].includes(b)))(
  '%s is really not read by ZXing (remove it from the list when ZXing learns it)',
  async (bcid) => {
    const { read } = await drawAndRead(bcid);
    expect(read).toEqual([]);
  },
);
