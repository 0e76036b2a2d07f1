import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import sharp from 'sharp';
import { pdfText } from '@tinkerdesk/testing';
import {
  countingListener,
  localImageHtml,
  outsideDocx,
  outsideHtml,
  outsideOdt,
  outsideXlsx,
  pdfImageSizes,
  withOutsidePicture,
  type CountingListener,
} from '../../test/outside-documents.js';
import { OfficeEngine, type OfficeEngineOptions, type OfficeRequest } from './libreoffice.js';
import { probeSandbox } from './sandbox.js';

/**
 * Real LibreOffice converting documents that reach outside (issue 27): a loopback listener counts
 * every request, and a PNG written outside any job folder stands for the worker's own files. Each
 * wall is proven on its own: the sandbox with the documents untouched, the removal of outside
 * references with soffice run unsandboxed, and both together (what the worker runs). Without either,
 * the same documents do reach the listener and embed the file: the test would catch it coming back.
 */
let listener: CountingListener;
let dir: string;
let localPng: string;
let pptxBase: Record<string, Uint8Array>;

const SECRET = { width: 61, height: 47, size: '61x47' };
const engines: OfficeEngine[] = [];
function engine(options: Partial<OfficeEngineOptions> = {}): OfficeEngine {
  const made = new OfficeEngine({ mode: 'warm', timeoutMs: 60_000, restartAfter: 100, ...options });
  engines.push(made);
  return made;
}

beforeAll(async () => {
  // An odd size no placeholder LibreOffice draws has, so the PDF's images tell whether it was embedded.
  const png = await sharp({ create: { width: SECRET.width, height: SECRET.height, channels: 3, background: '#e11d48' } })
    .png()
    .toBuffer();
  listener = await countingListener(png);
  dir = mkdtempSync(join(tmpdir(), 'outside-references-'));
  localPng = join(dir, 'worker-secret.png');
  writeFileSync(localPng, png);
  // A plain presentation made by LibreOffice itself; the test adds the outside picture to it.
  const maker = engine({ isolation: 'none' });
  pptxBase = unzipSync(await maker.convert(presentationOdp(), { kind: 'presentation', from: 'odp', to: 'pptx' }));
}, 120_000);

afterAll(async () => {
  await Promise.all(engines.map((e) => e.close()));
  await listener?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A one-slide OpenDocument presentation. */
function presentationOdp(): Uint8Array {
  const ns =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" ' +
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"';
  return zip({
    mimetype: 'application/vnd.oasis.opendocument.presentation',
    'META-INF/manifest.xml':
      '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
      '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.presentation"/>' +
      '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    'content.xml':
      `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ns} office:version="1.2"><office:body><office:presentation>` +
      `<draw:page draw:name="page1"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm"><draw:text-box>` +
      `<text:p>Outside references</text:p></draw:text-box></draw:frame></draw:page></office:presentation></office:body></office:document-content>`,
  });
}

function zip(files: Record<string, string>): Uint8Array {
  return zipSync(
    Object.fromEntries(Object.entries(files).map(([name, text]) => [name, [strToU8(text), { level: name === 'mimetype' ? 0 : 6 }]])),
  );
}

interface Case {
  name: string;
  request: OfficeRequest;
  document: () => Uint8Array;
}

const cases: Case[] = [
  { name: 'HTML', request: { kind: 'document', from: 'html', to: 'pdf' }, document: () => outsideHtml(listener.base, localPng) },
  { name: 'DOCX', request: { kind: 'document', from: 'docx', to: 'pdf' }, document: () => outsideDocx(listener.base) },
  { name: 'ODT', request: { kind: 'document', from: 'odt', to: 'pdf' }, document: () => outsideOdt(listener.base) },
  { name: 'XLSX', request: { kind: 'spreadsheet', from: 'xlsx', to: 'pdf' }, document: () => outsideXlsx(listener.base) },
  {
    name: 'CSV',
    request: { kind: 'spreadsheet', from: 'csv', to: 'pdf' },
    document: () => strToU8(`Outside references\n"=WEBSERVICE(""${listener.base}/csv/webservice"")"\n`),
  },
  {
    name: 'PPTX',
    request: { kind: 'presentation', from: 'pptx', to: 'pdf' },
    document: () => withOutsidePicture(pptxBase, listener.base),
  },
];

/** Converts every case, and answers the requests that reached the listener meanwhile, per case. */
async function convertAll(office: OfficeEngine): Promise<Record<string, string[]>> {
  const reached: Record<string, string[]> = {};
  for (const c of cases) {
    const before = listener.hits.length;
    const pdf = await office.convert(c.document(), c.request);
    expect(pdfText(pdf)).toContain('Outside references');
    // LibreOffice may ask late (after the document is written): give it a moment before counting.
    await new Promise((resolve) => setTimeout(resolve, 300));
    reached[c.name] = listener.hits.slice(before);
  }
  return reached;
}

const none = Object.fromEntries(cases.map((c) => [c.name, []]));

describe('LibreOffice and documents that reach outside', () => {
  it('the sandbox runs here (bubblewrap with user namespaces)', async () => {
    expect(await probeSandbox()).toEqual({ ok: true });
  });

  it('without either wall, the documents do reach the listener and the local file is embedded (what the tests guard against)', async () => {
    const reached = await convertAll(engine({ isolation: 'none', removeExternalReferences: false }));
    // soffice asks OPTIONS, HEAD and GET. The workbook's external link and WEBSERVICE are not updated on
    // load by LibreOffice's defaults (it asks the user first, and headless nobody answers): it is in the
    // cases below for the day that changes.
    expect(reached.HTML).toEqual(
      expect.arrayContaining(['GET /html/img.png', 'GET /html/link.css', 'GET /html/css-background.png', 'GET /html/td-background.png']),
    );
    expect(reached.DOCX).toContain('GET /docx/relationship.png');
    expect(reached.ODT).toContain('GET /odt/image.png');
    expect(reached.PPTX).toContain('GET /pptx/picture.png');
    const pdf = await engine({ isolation: 'none', removeExternalReferences: false }).convert(localImageHtml(localPng), {
      kind: 'document',
      from: 'html',
      to: 'pdf',
    });
    expect(pdfImageSizes(pdf)).toContain(SECRET.size);
  }, 240_000);

  it('the sandbox alone (documents untouched): zero requests reach the listener, and the local file is not in the PDF', async () => {
    const office = engine({ removeExternalReferences: false });
    expect(await convertAll(office)).toEqual(none);
    const pdf = await office.convert(localImageHtml(localPng), { kind: 'document', from: 'html', to: 'pdf' });
    expect(pdfText(pdf)).toContain('Local file');
    expect(pdfImageSizes(pdf)).toEqual([]);
  }, 240_000);

  it('the sandbox alone, cold (libreoffice-convert): zero requests', async () => {
    const office = engine({ mode: 'cold', removeExternalReferences: false });
    const before = listener.hits.length;
    const pdf = await office.convert(outsideHtml(listener.base, localPng), { kind: 'document', from: 'html', to: 'pdf' });
    expect(pdfText(pdf)).toContain('a hyperlink stays');
    expect(listener.hits.slice(before)).toEqual([]);
    expect(pdfImageSizes(pdf)).not.toContain(SECRET.size);
  }, 120_000);

  it('the removal of outside references alone (soffice unsandboxed): zero requests, and the local file is not in the PDF', async () => {
    const office = engine({ isolation: 'none' });
    expect(await convertAll(office)).toEqual(none);
    const pdf = await office.convert(localImageHtml(localPng), { kind: 'document', from: 'html', to: 'pdf' });
    expect(pdfText(pdf)).toContain('Local file');
    expect(pdfImageSizes(pdf)).toEqual([]);
  }, 240_000);

  it('both (what the worker runs): zero requests, no local file, hyperlinks kept', async () => {
    const office = engine();
    expect(await convertAll(office)).toEqual(none);
    const pdf = await office.convert(outsideHtml(listener.base, localPng), { kind: 'document', from: 'html', to: 'pdf' });
    expect(pdfImageSizes(pdf)).toEqual([]);
    expect(Buffer.from(pdf).toString('latin1')).toContain('https://example.com/kept');
  }, 240_000);
});
