import render from 'dom-serializer';
import { Element, Text, type AnyNode, type ChildNode, type Document } from 'domhandler';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { parseDocument } from 'htmlparser2';

/**
 * Removes what would make LibreOffice reach outside the document it converts, before it sees it.
 * LibreOffice itself runs without any network and with no view of the worker's files (sandbox.ts):
 * this is the second wall, so a document that names the outside gets nothing from it even where the
 * sandbox were missing a piece.
 *
 * - HTML: frames, objects, embeds, scripts, `<link>`, `<base>` and `<meta http-equiv>` go; every
 *   attribute that loads something (src, srcset, background, poster, data, href outside `<a>`...)
 *   keeps only inline `data:`; a hyperlink keeps only http(s), mailto and `#`; CSS (in `<style>` and
 *   `style=""`) loses `@import`, `url()` and `image-set()`; event handlers go.
 * - OOXML (docx, xlsx, pptx): every relationship to outside the package (`TargetMode="External"`, or a
 *   target with a scheme or a UNC path) goes, except http(s) and mailto hyperlinks; fields that
 *   include or link content (INCLUDEPICTURE, INCLUDETEXT, LINK, DDE, IMPORT, DATABASE...) lose their
 *   code; formulas calling WEBSERVICE or DDE, or naming an outside file, go (the cached value stays);
 *   VML `href`/`src` to outside, data connections and mail-merge sources go.
 * - ODF (odt, ods, odp): every `xlink:href` outside the package goes (hyperlinks keep http(s) and
 *   mailto), and so does any other attribute naming an outside file or URL (linked cell ranges,
 *   named ranges); linked sections and tables, DDE links and formulas calling WEBSERVICE or DDE go.
 * - In every XML part, the doctype goes (entities that would read files or URLs).
 * Other formats (txt, csv, rtf, and the binary doc, xls, ppt) pass unchanged: there the sandbox alone
 * holds (CSV is read with formulas not evaluated).
 */

const OOXML = new Set(['docx', 'xlsx', 'pptx']);
const ODF = new Set(['odt', 'ods', 'odp']);

/** A URL with a scheme, a protocol-relative one, or a UNC / Windows path: anything that is not a path inside. */
const OUTSIDE = /^\s*(?:[a-z][a-z0-9+.-]*:|\/\/|\\\\)/i;
/** A hyperlink target worth keeping in the output (never fetched by LibreOffice). */
const HYPERLINK = /^\s*(?:https?:|mailto:|#)/i;
/** Names a file or URL anywhere inside a value (ODF attributes, formulas). */
const NAMES_OUTSIDE = /(?:^|[^a-z0-9+.-])(?:file|https?|ftp|smb|dav|davs|webdav|vnd\.sun\.star\.[a-z.]+|macro|jar):|\\\\/i;
/** Formula functions that reach out. */
const REACHING_FUNCTION =
  /\b(?:WEBSERVICE|DDE|FILTERXML|RTD|CALL|REGISTER(?:\.ID)?|COM\.MICROSOFT\.WEBSERVICE|ORG\.OPENOFFICE\.WEBSERVICE)\s*\(/i;
/** An OOXML external workbook reference ([1]Sheet1!A1). */
const EXTERNAL_BOOK = /\[\s*\d+\s*\]/;
/** Word fields that pull content in from elsewhere. */
const INCLUDING_FIELD = /^\s*(?:INCLUDEPICTURE|INCLUDETEXT|INCLUDE|IMPORT|LINK|DDE|DDEAUTO|DATABASE|EMBED\s+Package)\b/i;

export function dangerousFormula(formula: string): boolean {
  return REACHING_FUNCTION.test(formula) || EXTERNAL_BOOK.test(formula) || NAMES_OUTSIDE.test(formula);
}

export function dangerousField(code: string): boolean {
  if (INCLUDING_FIELD.test(code)) return true;
  return !/^\s*HYPERLINK\b/i.test(code) && NAMES_OUTSIDE.test(code);
}

// ---------------------------------------------------------------------------------------------- CSS

/** CSS escapes (\75 rl, \u) resolved and comments removed: what a CSS parser would read. */
function cssAsRead(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '')
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_m, hex: string) => String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff) || 0xfffd))
    .replace(/\\([^\n])/g, '$1');
}

const CSS_FETCH = /@import|url\s*\(|image-set\s*\(|image\s*\(|expression\s*\(|behavio(?:u)?r\s*:|-moz-binding/i;

/** CSS without anything it would fetch; undefined when it hides one where it cannot be cut out. */
export function cleanCss(css: string): string | undefined {
  const out = css
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '')
    .replace(/@import[^;{}]*;?/gi, '')
    .replace(/url\s*\(\s*(?:"[^"]*"|'[^']*'|[^)]*)\s*\)/gi, (whole) => (/^url\s*\(\s*["']?data:/i.test(whole) ? whole : 'none'))
    .replace(/(?:-webkit-)?image-set\s*\((?:[^()]|\([^()]*\))*\)/gi, 'none');
  const read = cssAsRead(out).replace(/url\s*\(\s*["']?data:(?:"[^"]*"|'[^']*'|[^)]*)\)/gi, '');
  return CSS_FETCH.test(read) ? undefined : out;
}

// --------------------------------------------------------------------------------------------- HTML

/** Elements that load or run something, dropped with their content. */
const HTML_DROP = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'link',
  'base',
  'bgsound',
  'portal',
  'param',
]);
/** Attributes that load something: only inline data: may stay. */
const HTML_LOADS = new Set([
  'src',
  'srcset',
  'imagesrcset',
  'lowsrc',
  'dynsrc',
  'background',
  'poster',
  'data',
  'codebase',
  'code',
  'archive',
  'classid',
  'longdesc',
  'usemap',
  'profile',
  'manifest',
  'cite',
  'action',
  'formaction',
  'icon',
  'ping',
  'xlink:href',
  'content-src',
]);
const HYPERLINK_ELEMENTS = new Set(['a', 'area']);

/** The few entities a style attribute has in practice (Word's `font-family:&quot;Calibri&quot;`). */
const STYLE_ENTITIES: Record<string, string> = { quot: '"', amp: '&', apos: "'", lt: '<', gt: '>' };

/**
 * A style attribute as CSS reads it (entities that stand for ASCII decoded first), cleaned, and
 * written back raw. Entities for other characters stay as they are (they cannot spell what the
 * clean-up looks for); one with an unknown name makes the whole attribute go.
 */
function cleanStyleAttribute(raw: string): string | undefined {
  let unknown = false;
  const decoded = raw.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = /^#x/i.test(name) ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code < 0x80 ? String.fromCharCode(code) : whole;
    }
    const known = STYLE_ENTITIES[name.toLowerCase()];
    if (known !== undefined) return known;
    if (name.toLowerCase() !== 'nbsp') unknown = true;
    return whole;
  });
  if (unknown) return undefined;
  // Back to raw: a & that was not an entity's start becomes one again.
  return cleanCss(decoded)?.replace(/&(?!(?:#x[0-9a-f]+|#\d+|nbsp);)/gi, '&amp;');
}

function cleanHtmlElement(element: Element): void {
  for (const [name, raw] of Object.entries(element.attribs)) {
    const attr = name.toLowerCase();
    let keep: string | undefined = raw;
    if (attr.startsWith('on')) keep = undefined;
    else if (attr === 'href') keep = (HYPERLINK_ELEMENTS.has(element.name) ? HYPERLINK : /^\s*(?:data:|#)/i).test(raw) ? raw : undefined;
    else if (HTML_LOADS.has(attr)) keep = /^\s*data:/i.test(raw) && attr !== 'srcset' && attr !== 'imagesrcset' ? raw : undefined;
    else if (attr === 'style') keep = cleanStyleAttribute(raw);
    if (keep === undefined) delete element.attribs[name];
    // Raw values are written back as they came; a quote inside a single-quoted value must stay inside.
    else element.attribs[name] = keep.replace(/"/g, '&quot;');
  }
}

function cleanHtmlNodes(nodes: ChildNode[]): ChildNode[] {
  const kept: ChildNode[] = [];
  for (const node of nodes) {
    if (node instanceof Element) {
      const name = node.name.toLowerCase();
      if (HTML_DROP.has(name) || (name === 'meta' && 'http-equiv' in node.attribs)) continue;
      cleanHtmlElement(node);
      if (name === 'style') {
        const css = cleanCss(node.children.map((child) => (child instanceof Text ? child.data : '')).join(''));
        node.children = css === undefined ? [] : [new Text(css)];
      } else node.children = cleanHtmlNodes(node.children);
    }
    kept.push(node);
  }
  return kept;
}

/**
 * An HTML document without outside references. The bytes are read as Latin-1 and written back the
 * same way, so the document's own encoding (whatever its `<meta charset>` says) is kept byte for byte.
 */
export function cleanHtml(input: Uint8Array): Uint8Array {
  const text = Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('latin1');
  const document = parseDocument(text, { decodeEntities: false });
  document.children = cleanHtmlNodes(document.children);
  return Buffer.from(render(document, { decodeEntities: false }), 'latin1');
}

// ---------------------------------------------------------------------------------------------- XML

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

function elements(nodes: AnyNode[], visit: (element: Element) => void): void {
  for (const node of nodes) {
    if (!(node instanceof Element)) continue;
    visit(node);
    elements(node.children, visit);
  }
}

function textOf(element: Element): string {
  return element.children.map((child) => (child instanceof Text ? child.data : child instanceof Element ? textOf(child) : '')).join('');
}

/** Removes the elements `drop` says, wherever they are. */
function prune(nodes: ChildNode[], drop: (element: Element) => boolean): ChildNode[] {
  return nodes.filter((node) => {
    if (!(node instanceof Element)) return true;
    if (drop(node)) return false;
    node.children = prune(node.children, drop);
    return true;
  });
}

/** An XML part as text: its BOM and encoding honoured, the declaration and doctype taken off (added back in `writeXml`). */
function readXml(bytes: Uint8Array): string {
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be').decode(bytes.subarray(2));
  else text = strFromU8(bytes).replace(/^\uFEFF/, '');
  return text.replace(/^\s*<\?xml[^>]*\?>/, '').replace(/<!DOCTYPE[^[>]*(?:\[[\s\S]*?\])?\s*>/gi, '');
}

function writeXml(document: Document): Uint8Array {
  return strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${render(document, { xmlMode: true })}`);
}

function parseXml(bytes: Uint8Array): Document {
  return parseDocument(readXml(bytes), { xmlMode: true });
}

// -------------------------------------------------------------------------------------------- OOXML

/** A package relationship to outside (a file, a URL, a share) that is not a web or mail hyperlink. */
function outsideRelationship(element: Element): boolean {
  if (localName(element.name) !== 'Relationship') return false;
  const target = element.attribs.Target ?? '';
  const external = /^external$/i.test(element.attribs.TargetMode ?? '') || OUTSIDE.test(target);
  if (!external) return false;
  return !(/\/hyperlink$/i.test(element.attribs.Type ?? '') && HYPERLINK.test(target) && !/^\s*#/.test(target));
}

/** Word fields (complex: fldChar begin, instrText..., separate, end) whose code includes from elsewhere lose that code. */
function blankIncludingFields(document: Document): void {
  const open: Element[][] = [];
  const close = (instructions: Element[]): void => {
    if (!dangerousField(instructions.map(textOf).join(''))) return;
    for (const instruction of instructions) instruction.children = [];
  };
  elements(document.children, (element) => {
    const name = localName(element.name);
    if (name === 'fldChar') {
      const type = Object.entries(element.attribs).find(([attr]) => localName(attr) === 'fldCharType')?.[1];
      if (type === 'begin') open.push([]);
      else if (type === 'end') {
        const instructions = open.pop();
        if (instructions) close(instructions);
      }
    } else if (name === 'instrText' || name === 'delInstrText') {
      open.at(-1)?.push(element);
    } else if (name === 'fldSimple') {
      const instr = Object.keys(element.attribs).find((attr) => localName(attr) === 'instr');
      if (instr && dangerousField(element.attribs[instr] ?? '')) element.attribs[instr] = '';
    }
  });
  for (const instructions of open) close(instructions);
}

const OOXML_FORMULAS = new Set(['f', 'formula', 'formula1', 'formula2', 'definedName']);
const OOXML_DROP = new Set(['connection', 'mailMerge', 'webPublishItem']);
const OOXML_URL_ATTRS = new Set(['href', 'src', 'althref', 'url', 'sourceFile', 'odcFile', 'connection', 'destinationFile']);

function cleanOoxmlPart(path: string, bytes: Uint8Array): Uint8Array {
  const document = parseXml(bytes);
  if (/\.rels$/i.test(path)) {
    document.children = prune(document.children, outsideRelationship);
    return writeXml(document);
  }
  blankIncludingFields(document);
  // Shared formulas (t="shared" si="n") follow their first cell: when it goes, so do they.
  const droppedShared = new Set<string>();
  elements(document.children, (element) => {
    if (localName(element.name) === 'f' && element.attribs.t === 'shared' && dangerousFormula(textOf(element)))
      droppedShared.add(element.attribs.si ?? '');
  });
  document.children = prune(document.children, (element) => {
    const name = localName(element.name);
    if (OOXML_DROP.has(name)) return true;
    if (!OOXML_FORMULAS.has(name)) return false;
    if (name === 'f' && element.attribs.t === 'shared' && droppedShared.has(element.attribs.si ?? '')) return true;
    return dangerousFormula(textOf(element));
  });
  elements(document.children, (element) => {
    for (const [attr, value] of Object.entries(element.attribs))
      if (OOXML_URL_ATTRS.has(localName(attr)) && !attr.startsWith('xmlns') && OUTSIDE.test(value)) delete element.attribs[attr];
  });
  return writeXml(document);
}

// ---------------------------------------------------------------------------------------------- ODF

const ODF_DROP = new Set([
  'section-source',
  'table-source',
  'cell-range-source',
  'dde-source',
  'dde-connection-decl',
  'dde-connection-decls',
  'dde-link',
  'dde-links',
]);
const ODF_FORMULA_ATTRS = new Set(['formula', 'condition', 'expression']);

/** A reference inside the package (Pictures/1.png, ./Object 1, #frame), not one beside or outside it. */
function insidePackage(href: string): boolean {
  const value = href.trim();
  return !OUTSIDE.test(value) && !value.startsWith('/') && !/^(?:\.\/)*\.\.(?:[/\\]|$)/.test(value);
}

function cleanOdfPart(bytes: Uint8Array): Uint8Array {
  const document = parseXml(bytes);
  document.children = prune(document.children, (element) => ODF_DROP.has(localName(element.name)));
  elements(document.children, (element) => {
    const hyperlink = localName(element.name) === 'a';
    for (const [attr, value] of Object.entries(element.attribs)) {
      if (attr === 'xmlns' || attr.startsWith('xmlns:')) continue;
      const name = localName(attr);
      let keep: boolean;
      if (name === 'href') keep = insidePackage(value) || (hyperlink && HYPERLINK.test(value));
      else if (ODF_FORMULA_ATTRS.has(name)) keep = !dangerousFormula(value);
      else keep = !NAMES_OUTSIDE.test(value);
      if (!keep) delete element.attribs[attr];
    }
  });
  return writeXml(document);
}

// -------------------------------------------------------------------------------------------- ZIPs

function cleanZip(input: Uint8Array, clean: (path: string, bytes: Uint8Array) => Uint8Array): Uint8Array {
  const entries = unzipSync(input);
  const out: Zippable = {};
  // In the order they came (ODF's mimetype stays first), mimetype stored as ODF wants it.
  for (const [path, bytes] of Object.entries(entries)) {
    if (path === 'mimetype') out[path] = [bytes, { level: 0 }];
    else if (/\.(?:xml|rels|vml)$/i.test(path) && bytes.length > 0) out[path] = clean(path, bytes);
    else out[path] = bytes;
  }
  return zipSync(out, { level: 6 });
}

/** The document without references to the outside, ready for LibreOffice (see above); `from` is the source format id. */
export function removeExternalReferences(input: Uint8Array, from: string): Uint8Array {
  if (from === 'html') return cleanHtml(input);
  if (OOXML.has(from)) return cleanZip(input, cleanOoxmlPart);
  if (ODF.has(from)) return cleanZip(input, (path, bytes) => (path === 'META-INF/manifest.xml' ? bytes : cleanOdfPart(bytes)));
  return input;
}
