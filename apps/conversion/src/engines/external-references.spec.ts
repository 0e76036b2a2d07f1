import { describe, expect, it } from '@jest/globals';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { outsideDocx, outsideOdt, outsideXlsx } from '../../test/outside-documents.js';
import { cleanCss, cleanHtml, dangerousField, dangerousFormula, removeExternalReferences } from './external-references.js';

const BASE = 'http://127.0.0.1:9';
const html = (source: string) => strFromU8(cleanHtml(strToU8(source)));
const parts = (zip: Uint8Array) => Object.fromEntries(Object.entries(unzipSync(zip)).map(([name, bytes]) => [name, strFromU8(bytes)]));

describe('removeExternalReferences: HTML', () => {
  it('drops what loads from elsewhere and keeps the text, inline data and hyperlinks', () => {
    const out = html(
      `<!doctype html><html><head><link rel="stylesheet" href="${BASE}/a.css"><base href="${BASE}/"><meta http-equiv="refresh" content="0;url=${BASE}/r">` +
        `<script src="${BASE}/s.js"></script></head><body background="${BASE}/b.png" onload="x()">` +
        `<img src="${BASE}/i.png" srcset="${BASE}/i2.png 2x" alt="a"><img src="file:///etc/passwd"><img src="\\\\host\\share\\x.png"><img src="relative.png">` +
        `<img src="data:image/png;base64,AAAA"><iframe src="${BASE}/f"></iframe><object data="${BASE}/o"></object><embed src="${BASE}/e">` +
        `<svg><image href="${BASE}/svg.png" xlink:href="${BASE}/svg2.png"/></svg><video poster="${BASE}/p.png"></video>` +
        `<a href="https://example.com/">web</a> <a href="mailto:a@example.com">mail</a> <a href="#top">top</a> <a href="file:///etc/passwd">file</a>` +
        `<p title='say "hi"'>Text stays</p></body></html>`,
    );
    expect(out).not.toContain('127.0.0.1');
    expect(out).not.toMatch(/file:|\\\\host|relative\.png|<iframe|<object|<embed|<script|<link|<base|http-equiv|onload/);
    expect(out).toContain('src="data:image/png;base64,AAAA"');
    expect(out).toContain('<a href="https://example.com/">web</a>');
    expect(out).toContain('href="mailto:a@example.com"');
    expect(out).toContain('href="#top"');
    expect(out).toContain('<a>file</a>');
    expect(out).toContain('title="say &quot;hi&quot;">Text stays</p>');
  });

  it('takes @import, url() and image-set() out of CSS, in <style> and style="" alike', () => {
    const out = html(
      `<style>@import url("${BASE}/i.css"); @import '${BASE}/j.css'; p { color: red; background: url(${BASE}/b.png) }` +
        ` q { background-image: image-set("${BASE}/s.png" 1x) } i { background: url("data:image/png;base64,AA") }</style>` +
        `<p style="color: blue; background: url('${BASE}/inline.png')">x</p><p style="background: u&#114;l(${BASE}/entity.png)">y</p>` +
        `<p style="font-family:&quot;Calibri&quot;,sans-serif; background: url(&quot;${BASE}/quoted.png&quot;)">z</p>` +
        `<p style="background: u&rarr;l(${BASE}/other-entity.png)">w</p><p style="content: '&#x2014;&nbsp;'">v</p>`,
    );
    expect(out).not.toContain('127.0.0.1');
    expect(out).toContain('color: red');
    expect(out).toContain('color: blue');
    expect(out).toContain('url("data:image/png;base64,AA")');
    expect(out).toContain('<p style="font-family:&quot;Calibri&quot;,sans-serif; background: none">z</p>');
    expect(out).toContain('<p>w</p>');
    expect(out).toContain(`<p style="content: '&#x2014;&nbsp;'">v</p>`);
  });

  it('keeps the bytes of the document’s own encoding (Latin-1 in, Latin-1 out)', () => {
    const latin1 = Buffer.from('<meta charset="windows-1252"><p>caf\u00e9 \u00a0 &euro;</p>', 'latin1');
    expect(Buffer.from(cleanHtml(latin1)).toString('latin1')).toBe('<meta charset="windows-1252"><p>caf\u00e9 \u00a0 &euro;</p>');
  });
});

describe('cleanCss', () => {
  it('refuses CSS that hides a fetch behind escapes or comments', () => {
    expect(cleanCss(`p { background: \\75 rl(${BASE}/x.png) }`)).toBeUndefined();
    expect(cleanCss(`p { background: u\\rl(${BASE}/x.png) }`)).toBeUndefined();
    expect(cleanCss(`@\\69mport "${BASE}/x.css";`)).toBeUndefined();
    expect(cleanCss('p { content: "\\2014" }')).toBe('p { content: "\\2014" }');
  });
});

describe('removeExternalReferences: OOXML', () => {
  it('drops external relationships but http(s) hyperlinks, and blanks INCLUDEPICTURE and INCLUDETEXT fields', () => {
    const out = parts(removeExternalReferences(outsideDocx(BASE), 'docx'));
    const all = Object.values(out).join('\n');
    expect(all).not.toContain('127.0.0.1');
    expect(out['word/_rels/document.xml.rels']).toContain('Target="https://example.com/kept"');
    expect(out['word/_rels/document.xml.rels']).toContain('Target="settings.xml"');
    expect(out['word/document.xml']).toContain('<w:t>Outside references</w:t>');
    expect(out['word/document.xml']).not.toMatch(/INCLUDE/);
    expect(out['word/document.xml']).toContain('<w:t>picture</w:t>'); // the field's last result stays
  });

  it('drops external workbook links and formulas that reach out (WEBSERVICE, through a cell too), keeping cached values', () => {
    const out = parts(removeExternalReferences(outsideXlsx(BASE), 'xlsx'));
    expect(out['xl/externalLinks/_rels/externalLink1.xml.rels']).not.toContain('127.0.0.1');
    expect(out['xl/worksheets/sheet1.xml']).not.toMatch(/WEBSERVICE|\[1\]/);
    expect(out['xl/workbook.xml']).not.toContain('WEBSERVICE');
    expect(out['xl/worksheets/sheet1.xml']).toContain('<t>Outside references</t>');
    const shared = zipSync({
      'xl/worksheets/sheet1.xml': strToU8(
        '<worksheet><sheetData><row r="1"><c r="A1"><f t="shared" ref="A1:A2" si="0">WEBSERVICE(B1)</f><v>1</v></c>' +
          '<c r="A2"><f t="shared" si="0"/><v>2</v></c><c r="A3"><f>SUM(A1:A2)</f><v>3</v></c></row></sheetData></worksheet>',
      ),
    });
    const sheet = parts(removeExternalReferences(shared, 'xlsx'))['xl/worksheets/sheet1.xml']!;
    expect(sheet).not.toContain('si="0"');
    expect(sheet).toContain('<f>SUM(A1:A2)</f>');
    expect(sheet).toContain('<v>2</v>');
  });

  it('drops VML links, data connections and doctypes (entities)', () => {
    const zip = zipSync({
      'word/vmlDrawing1.vml': strToU8(
        `<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="o"><v:imagedata o:href="${BASE}/v.png" src="file:///x" o:title="t"/></xml>`,
      ),
      'xl/connections.xml': strToU8(`<connections><connection id="1"><webPr url="${BASE}/q"/></connection></connections>`),
      'word/document.xml': strToU8(`<!DOCTYPE d [<!ENTITY e SYSTEM "file:///etc/passwd">]><w:document xmlns:w="w">&amp;</w:document>`),
    });
    const out = parts(removeExternalReferences(zip, 'docx'));
    expect(out['word/vmlDrawing1.vml']).toContain('o:title="t"');
    expect(Object.values(out).join('\n')).not.toMatch(/127\.0\.0\.1|file:|DOCTYPE|ENTITY/);
  });
});

describe('removeExternalReferences: ODF', () => {
  it('drops outside xlink:href and linked sections, keeps package pictures and web hyperlinks, and the mimetype first and stored', () => {
    const source = unzipSync(outsideOdt(BASE));
    source['content.xml'] = strToU8(
      strFromU8(source['content.xml']!).replace(
        '</office:text>',
        '<text:p><draw:frame><draw:image xlink:href="Pictures/inside.png"/></draw:frame><draw:frame><draw:image xlink:href="../beside.png"/></draw:frame></text:p>' +
          `<table:table><table:table-row><table:table-cell table:formula="of:=WEBSERVICE(&quot;${BASE}/w&quot;)" office:value="1"/>` +
          `<table:table-cell table:formula="of:=['file:///etc/passwd'#$Sheet1.A1]"/></table:table-row></table:table></office:text>`,
      ),
    );
    const cleaned = removeExternalReferences(zipSync({ mimetype: [source.mimetype!, { level: 0 }], ...source }), 'odt');
    expect(strFromU8(cleaned.subarray(30, 38))).toBe('mimetype');
    const content = parts(cleaned)['content.xml']!;
    expect(content).not.toMatch(/127\.0\.0\.1|section-source|beside|file:|WEBSERVICE/);
    expect(content).toContain('xlink:href="Pictures/inside.png"');
    expect(content).toContain('xlink:href="https://example.com/kept"');
    expect(content).toContain('office:value="1"');
  });
});

describe('the tests of fields and formulas', () => {
  it('names the fields that include from elsewhere, but not hyperlinks', () => {
    expect(dangerousField(' INCLUDEPICTURE "x.png" \\d')).toBe(true);
    expect(dangerousField('includetext "\\\\\\\\server\\\\share\\\\a.docx"')).toBe(true);
    expect(dangerousField(' LINK Excel.Sheet.8 "C:\\\\a.xls" ')).toBe(true);
    expect(dangerousField(' DDEAUTO cmd "/c calc" ')).toBe(true);
    expect(dangerousField(' HYPERLINK "https://example.com" ')).toBe(false);
    expect(dangerousField(' PAGE ')).toBe(false);
  });

  it('names formulas that reach out', () => {
    expect(dangerousFormula('WEBSERVICE(A1)')).toBe(true);
    expect(dangerousFormula('_xlfn.WEBSERVICE("http://x")')).toBe(true);
    expect(dangerousFormula('[1]Sheet1!A1')).toBe(true);
    expect(dangerousFormula("of:=['file:///a.ods'#$Sheet1.A1]")).toBe(true);
    expect(dangerousFormula('SUM(A1:A3)*2')).toBe(false);
    expect(dangerousFormula('of:=SUM([.A1:.A3])')).toBe(false);
  });
});

describe('other formats', () => {
  it('pass unchanged', () => {
    const rtf = strToU8('{\\rtf1 hello}');
    expect(removeExternalReferences(rtf, 'rtf')).toBe(rtf);
  });
});
