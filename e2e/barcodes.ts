import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

// Reads the barcodes in an image file with ZXing-C++ (zxing-wasm) in the test process, from the
// package's own .wasm (nothing is fetched): the proof that what the site draws really scans.
const require = createRequire(import.meta.url);
let prepared = false;

export async function decodeImage(bytes: Buffer): Promise<Array<{ format: string; text: string }>> {
  if (!prepared) {
    const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
      fireImmediately: true,
    });
    prepared = true;
  }
  const results = await readBarcodes(new Blob([new Uint8Array(bytes)]), { formats: [], tryHarder: true });
  return results.filter((r) => r.isValid).map((r) => ({ format: r.format, text: r.text }));
}
