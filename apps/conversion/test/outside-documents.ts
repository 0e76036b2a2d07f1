import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';

/**
 * Documents that reach outside themselves in every way LibreOffice follows, made in the test (no
 * binary fixtures): each names `base` (a loopback listener that counts requests) with a path saying
 * which reference asked, and the HTML also names a local file.
 */

const xml = (body: string) => strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`);

/** An HTML page whose images, style sheets, CSS, frames and objects are all elsewhere. */
export function outsideHtml(base: string, localImage?: string): Uint8Array {
  return strToU8(`<!doctype html><html><head><title>Outside</title>
<link rel="stylesheet" href="${base}/html/link.css">
<style>@import url("${base}/html/import.css"); @import '${base}/html/import-bare.css';
body { background: url(${base}/html/css-background.png) }</style>
</head><body background="${base}/html/body-background.png">
<p style="background-image: url('${base}/html/style-attribute.png')">Outside references</p>
<img src="${base}/html/img.png" width="64" height="64" alt="remote">
<img srcset="${base}/html/srcset.png 1x" width="64" height="64" alt="remote">
<table background="${base}/html/table-background.png"><tr><td background="${base}/html/td-background.png">cell</td></tr></table>
<iframe src="${base}/html/frame.html"></iframe>
<object data="${base}/html/object.png" type="image/png"></object>
<embed src="${base}/html/embed.png">
${localImage ? `<img src="file://${localImage}" width="64" height="64" alt="local"><img src="${localImage}" width="64" height="64" alt="local path">` : ''}
<p><a href="https://example.com/kept">a hyperlink stays</a></p>
</body></html>`);
}

/** Only an image of the local file system (file: URL). */
export function localImageHtml(path: string): Uint8Array {
  return strToU8(`<!doctype html><html><body><p>Local file</p><img src="file://${path}" width="64" height="64"></body></html>`);
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const PIC = 'http://schemas.openxmlformats.org/drawingml/2006/picture';
const WP = 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing';
const IMAGE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';

function field(code: string, result: string): string {
  return (
    `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${code} </w:instrText></w:r>` +
    `<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>${result}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`
  );
}

/** A picture whose blip is linked (r:link), not embedded. */
function linkedPicture(relId: string): string {
  return (
    `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="609600" cy="609600"/><wp:docPr id="1" name="Picture 1"/>` +
    `<a:graphic><a:graphicData uri="${PIC}"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="remote.png"/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip r:link="${relId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="609600" cy="609600"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>` +
    `</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`
  );
}

/** A Word document with an external image relationship, INCLUDEPICTURE and INCLUDETEXT fields, and an external template. */
export function outsideDocx(base: string): Uint8Array {
  return zipSync({
    '[Content_Types].xml': xml(
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
        `<Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>` +
        `<Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/>` +
        `</Types>`,
    ),
    '_rels/.rels': xml(
      `<Relationships xmlns="${REL}"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    'word/_rels/document.xml.rels': xml(
      `<Relationships xmlns="${REL}">` +
        `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings" Target="settings.xml"/>` +
        `<Relationship Id="rId2" Type="${IMAGE_REL}" Target="${base}/docx/relationship.png" TargetMode="External"/>` +
        `<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/kept" TargetMode="External"/>` +
        `</Relationships>`,
    ),
    'word/_rels/settings.xml.rels': xml(
      `<Relationships xmlns="${REL}"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate" Target="${base}/docx/template.dotx" TargetMode="External"/></Relationships>`,
    ),
    'word/settings.xml': xml(`<w:settings xmlns:w="${W}" xmlns:r="${R}"><w:attachedTemplate r:id="rId1"/></w:settings>`),
    'word/document.xml': xml(
      `<w:document xmlns:w="${W}" xmlns:r="${R}" xmlns:a="${A}" xmlns:pic="${PIC}" xmlns:wp="${WP}"><w:body>` +
        `<w:p><w:r><w:t>Outside references</w:t></w:r></w:p>` +
        linkedPicture('rId2') +
        field(`INCLUDEPICTURE "${base}/docx/includepicture.png" \\d`, 'picture') +
        field(`INCLUDETEXT "${base}/docx/includetext.docx"`, 'text') +
        `<w:p><w:hyperlink r:id="rId3"><w:r><w:t>a hyperlink stays</w:t></w:r></w:hyperlink></w:p>` +
        `</w:body></w:document>`,
    ),
  });
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" ' +
  'xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';

/** An OpenDocument text with a linked (not embedded) image and a linked section. */
export function outsideOdt(base: string): Uint8Array {
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }],
    'META-INF/manifest.xml': xml(
      '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>' +
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    ),
    'content.xml': xml(
      `<office:document-content ${ODF_NS} office:version="1.2"><office:body><office:text>` +
        `<text:p>Outside references</text:p>` +
        `<text:p><draw:frame draw:name="remote" text:anchor-type="as-char" svg:width="2cm" svg:height="2cm">` +
        `<draw:image xlink:href="${base}/odt/image.png" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>` +
        `<text:section text:name="linked"><text:section-source xlink:href="${base}/odt/section.odt" xlink:type="simple"/><text:p>section</text:p></text:section>` +
        `<text:p><text:a xlink:type="simple" xlink:href="https://example.com/kept">a hyperlink stays</text:a></text:p>` +
        `</office:text></office:body></office:document-content>`,
    ),
  });
}

const S = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

/** An Excel workbook with an external workbook link (and a formula through it) and WEBSERVICE formulas without cached values. */
export function outsideXlsx(base: string): Uint8Array {
  return zipSync({
    '[Content_Types].xml': xml(
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
        `<Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
        `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
        `<Override PartName="/xl/externalLinks/externalLink1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.externalLink+xml"/>` +
        `</Types>`,
    ),
    '_rels/.rels': xml(
      `<Relationships xmlns="${REL}"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/_rels/workbook.xml.rels': xml(
      `<Relationships xmlns="${REL}">` +
        `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLink" Target="externalLinks/externalLink1.xml"/>` +
        `</Relationships>`,
    ),
    'xl/workbook.xml': xml(
      `<workbook xmlns="${S}" xmlns:r="${R}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets>` +
        `<externalReferences><externalReference r:id="rId2"/></externalReferences>` +
        `<definedNames><definedName name="remote">WEBSERVICE("${base}/xlsx/defined-name")</definedName></definedNames>` +
        `<calcPr fullCalcOnLoad="1"/></workbook>`,
    ),
    'xl/worksheets/sheet1.xml': xml(
      `<worksheet xmlns="${S}" xmlns:r="${R}"><sheetData>` +
        `<row r="1"><c r="A1" t="inlineStr"><is><t>Outside references</t></is></c></row>` +
        `<row r="2"><c r="A2"><f>[1]Sheet1!A1</f></c></row>` +
        `<row r="3"><c r="A3" t="str"><f>WEBSERVICE("${base}/xlsx/webservice")</f></c></row>` +
        `<row r="4"><c r="A4" t="inlineStr"><is><t>${base}/xlsx/through-a-cell</t></is></c><c r="B4" t="str"><f>WEBSERVICE(A4)</f></c></row>` +
        `</sheetData></worksheet>`,
    ),
    'xl/externalLinks/externalLink1.xml': xml(
      `<externalLink xmlns="${S}" xmlns:r="${R}"><externalBook r:id="rId1"><sheetNames><sheetName val="Sheet1"/></sheetNames>` +
        `<sheetDataSet><sheetData sheetId="0" refreshError="1"/></sheetDataSet></externalBook></externalLink>`,
    ),
    'xl/externalLinks/_rels/externalLink1.xml.rels': xml(
      `<Relationships xmlns="${REL}"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLinkPath" Target="${base}/xlsx/external-link.xlsx" TargetMode="External"/></Relationships>`,
    ),
  });
}

/**
 * A PowerPoint presentation (`pptx`, made by LibreOffice from a plain one) with a picture whose image
 * is an external relationship added to its first slide.
 */
export function withOutsidePicture(pptx: Record<string, Uint8Array>, base: string): Uint8Array {
  const slide = 'ppt/slides/slide1.xml';
  const rels = 'ppt/slides/_rels/slide1.xml.rels';
  const picture =
    `<p:pic><p:nvPicPr><p:cNvPr id="99" name="remote"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr>` +
    `<p:blipFill><a:blip r:link="rIdOutside"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>` +
    `<p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1219200" cy="1219200"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`;
  const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);
  const slideXml = text(pptx[slide]).replace('</p:spTree>', `${picture}</p:spTree>`);
  const relsXml = text(pptx[rels]).replace(
    '</Relationships>',
    `<Relationship Id="rIdOutside" Type="${IMAGE_REL}" Target="${base}/pptx/picture.png" TargetMode="External"/></Relationships>`,
  );
  return zipSync({ ...pptx, [slide]: strToU8(slideXml), [rels]: strToU8(relsXml) });
}

/** The sizes (`61x47`) of the images a PDF holds (poppler's pdfimages -list: two header lines, then one line per image). */
export function pdfImageSizes(pdf: Uint8Array): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'tinkerdesk-pdf-images-'));
  try {
    writeFileSync(join(dir, 'a.pdf'), pdf);
    const lines = execFileSync('pdfimages', ['-list', join(dir, 'a.pdf')], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .slice(2);
    return lines.map((line) => line.trim().split(/\s+/)).map((cells) => `${cells[3]}x${cells[4]}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A loopback HTTP listener that counts what reaches it (any .png path answers an image, .css a style sheet). */
export interface CountingListener {
  base: string;
  hits: string[];
  close(): Promise<void>;
}

export async function countingListener(png: Uint8Array, host = '127.0.0.1'): Promise<CountingListener> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (req.url?.endsWith('.png')) return void res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    if (req.url?.endsWith('.css')) return void res.writeHead(200, { 'content-type': 'text/css' }).end('p { color: red }');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>outside</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
