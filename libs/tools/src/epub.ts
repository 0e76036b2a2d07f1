import render from 'dom-serializer';
import { Element, Text, type ChildNode } from 'domhandler';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { parseDocument } from 'htmlparser2';
import { markdownToHtml } from './markdown.js';

/**
 * EPUB 3 books from chapters written in Markdown or pasted HTML: the OCF zip (mimetype first and
 * stored), the package document, the navigation document (table of contents) and an NCX for old
 * readers, a cover page, and every chapter as well-formed XHTML that keeps only what EPUB content
 * documents allow. Pure: it runs in a worker and in the tests, which check the books with epubcheck.
 */
export class EpubError extends Error {
  override name = 'EpubError';
}

export interface EpubImage {
  /** The name chapters refer to it by (![alt](name) or <img src="name">). */
  name: string;
  mediaType: string;
  bytes: Uint8Array;
}

export interface EpubChapter {
  title: string;
  format: 'markdown' | 'html';
  content: string;
}

export interface EpubBook {
  title: string;
  author: string;
  /** A BCP 47 language tag: en, de-CH, zh-Hans, ar. */
  language: string;
  cover?: EpubImage;
  images: EpubImage[];
  chapters: EpubChapter[];
  /** urn:uuid:… ; made from random bytes when not given. */
  identifier?: string;
  /** The dcterms:modified time; now when not given. */
  modified?: Date;
}

export interface EpubResult {
  bytes: Uint8Array;
  /** What was changed to make the book valid: dropped elements, missing images, links that lead nowhere. */
  notes: string[];
}

/** The image types every EPUB reader shows (EPUB 3.2 core media types). */
export const EPUB_IMAGE_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
};

const KEEP = new Set(
  'p h1 h2 h3 h4 h5 h6 ul ol li blockquote pre code em strong b i u s del ins sub sup a img br hr table thead tbody tfoot tr th td caption figure figcaption span div section article aside header footer dl dt dd abbr cite q small mark kbd samp var time ruby rt rp bdi bdo wbr'.split(
    ' ',
  ),
);
/** Elements dropped with everything in them. */
const DROP = new Set(
  'script style iframe object embed form input button select textarea audio video canvas noscript template head title meta link svg math frame frameset applet'.split(
    ' ',
  ),
);
const GLOBAL_ATTRS = new Set(['id', 'class', 'title', 'lang', 'dir']);
const ELEMENT_ATTRS: Record<string, string[]> = {
  a: ['href'],
  img: ['src', 'alt', 'width', 'height'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
  ol: ['start', 'reversed', 'type'],
  li: ['value'],
  time: ['datetime'],
  q: ['cite'],
  blockquote: ['cite'],
  abbr: [],
  bdo: ['dir'],
};

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** Characters XML 1.0 does not allow (control characters other than tab, line feed, carriage return). */
function xmlSafe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');
}

export function checkLanguage(tag: string): string {
  const trimmed = tag.trim();
  try {
    const [canonical] = Intl.getCanonicalLocales(trimmed);
    if (canonical) return canonical;
  } catch {
    // not a language tag
  }
  throw new EpubError(`"${trimmed}" is not a language tag: use one like en, fr, pt-BR or zh-Hans.`);
}

/** A file name safe inside the book: letters, digits, dot, dash and underscore. */
function safeName(name: string, ext: string, taken: Set<string>): string {
  const stem =
    name
      .replace(/\.[^.]+$/, '')
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'image';
  let candidate = `${stem}.${ext}`;
  for (let i = 2; taken.has(candidate.toLowerCase()); i++) candidate = `${stem}-${i}.${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

interface ChapterContext {
  chapter: number;
  images: Map<string, string>;
  notes: Set<string>;
}

/** The chapter's HTML as a clean XHTML fragment: allowed elements and attributes, images found, links that lead somewhere. */
function cleanChapter(html: string, context: ChapterContext): string {
  const document = parseDocument(xmlSafe(html), { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  const ids = new Set<string>();
  const fragments: Element[] = [];
  const where = `Chapter ${context.chapter}`;

  const clean = (nodes: ChildNode[]): ChildNode[] => {
    const out: ChildNode[] = [];
    for (const node of nodes) {
      if (node instanceof Text) {
        out.push(node);
        continue;
      }
      if (!(node instanceof Element)) continue;
      const name = node.name.toLowerCase();
      if (name === 'input' && node.attribs.type === 'checkbox') {
        out.push(new Text('checked' in node.attribs ? '☑ ' : '☐ '));
        continue;
      }
      if (DROP.has(name)) {
        if (!['head', 'title', 'meta', 'link', 'style'].includes(name))
          context.notes.add(`${where}: <${name}> is not allowed in an EPUB chapter and was left out.`);
        continue;
      }
      if (!KEEP.has(name)) {
        out.push(...clean(node.children));
        continue;
      }
      const allowed = new Set([...GLOBAL_ATTRS, ...(ELEMENT_ATTRS[name] ?? [])]);
      const attribs: Record<string, string> = {};
      for (const [key, value] of Object.entries(node.attribs)) {
        if (allowed.has(key)) attribs[key] = xmlSafe(value);
      }
      if (attribs.id !== undefined) {
        if (!/^[A-Za-z_][\w.-]*$/.test(attribs.id) || ids.has(attribs.id)) delete attribs.id;
        else ids.add(attribs.id);
      }
      for (const key of ['width', 'height', 'colspan', 'rowspan', 'start', 'value']) {
        if (attribs[key] !== undefined && !/^\d+$/.test(attribs[key]!)) delete attribs[key];
      }
      if (attribs.dir !== undefined && !['ltr', 'rtl', 'auto'].includes(attribs.dir)) delete attribs.dir;
      if (name === 'img') {
        const src = (attribs.src ?? '').trim();
        const target = context.images.get(src) ?? context.images.get(decodeURIComponent(src.replace(/^\.\//, '')));
        if (!target) {
          context.notes.add(
            /^(https?:)?\/\//i.test(src)
              ? `${where}: the image ${src} is on the web; books carry their images, so add it under Images. Its description is shown instead.`
              : `${where}: there is no image named "${src}" under Images. Its description is shown instead.`,
          );
          if (attribs.alt) out.push(new Text(`[${attribs.alt}]`));
          continue;
        }
        attribs.src = `images/${target}`;
        attribs.alt ??= '';
      }
      if (name === 'a' && attribs.href !== undefined) {
        const href = attribs.href.trim();
        if (/^(https?|mailto):/i.test(href)) attribs.href = href;
        else if (!(href.startsWith('#') && href.length > 1)) {
          delete attribs.href;
          if (href) context.notes.add(`${where}: the link to "${href}" leads outside the book and was made plain text.`);
        }
      }
      const copy = new Element(name, attribs, clean(node.children));
      if (name === 'a' && attribs.href?.startsWith('#')) fragments.push(copy);
      out.push(copy);
    }
    return out;
  };
  const children = clean(document.children);
  for (const link of fragments) {
    if (!ids.has(link.attribs.href!.slice(1))) delete link.attribs.href;
  }
  return render(children, { xmlMode: true, decodeEntities: true, encodeEntities: 'utf8' });
}

function xhtml(title: string, language: string, body: string): string {
  const lang = escapeXml(language);
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="${lang}" xml:lang="${lang}">
<head>
<meta charset="UTF-8"/>
<title>${escapeXml(title)}</title>
<link rel="stylesheet" type="text/css" href="style.css"/>
</head>
<body>
${body}
</body>
</html>
`;
}

const STYLE = `body { margin: 0 5%; line-height: 1.5; font-family: serif; }
h1, h2, h3, h4, h5, h6 { line-height: 1.2; font-family: sans-serif; }
h1 { margin-top: 2em; }
img { max-width: 100%; height: auto; }
pre, code { font-family: monospace; }
pre { white-space: pre-wrap; }
blockquote { margin-left: 1.5em; font-style: italic; }
table { border-collapse: collapse; }
th, td { border: 1px solid #999; padding: 0.2em 0.5em; }
.cover { margin: 0; padding: 0; text-align: center; }
.cover img { max-height: 100%; }
nav ol { list-style: none; padding-left: 0; }
`;

function uuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Checks the book and builds the .epub file. */
/** Normalised heading text for comparison: letter case and runs of white space do not count. */
const sameText = (a: string, b: string): boolean =>
  a.replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(/\s+/g, ' ').trim().toLowerCase();

/** The text of a node and everything in it. */
function textContent(node: ChildNode): string {
  if (node instanceof Text) return node.data;
  return node instanceof Element ? node.children.map(textContent).join('') : '';
}

/** Whether a chapter's clean body opens with a heading (h1–h3) that says the chapter's title already. */
function opensWithTitle(body: string, title: string): boolean {
  const first = parseDocument(body, { xmlMode: true }).children.find((n) => !(n instanceof Text && n.data.trim() === ''));
  return first instanceof Element && /^h[1-3]$/.test(first.name) && sameText(textContent(first), title);
}

interface Prepared {
  title: string;
  language: string;
  author: string;
  notes: Set<string>;
  files: Array<{ id: string; href: string; mediaType: string; bytes: Uint8Array; properties?: string }>;
  coverHref: string | undefined;
  chapters: Array<{ id: string; href: string; title: string; body: string; titled: boolean }>;
}

/** Everything of the book but the ZIP: checked details, images named, chapters cleaned, and what was changed. */
function prepare(book: EpubBook): Prepared {
  const title = xmlSafe(book.title.trim());
  if (!title) throw new EpubError('Give the book a title.');
  const language = checkLanguage(book.language);
  const author = xmlSafe(book.author.trim());
  if (book.chapters.length === 0) throw new EpubError('Add at least one chapter.');
  const notes = new Set<string>();

  const taken = new Set<string>(['cover.xhtml', 'nav.xhtml']);
  const files: Prepared['files'] = [];
  const byName = new Map<string, string>();
  book.images.forEach((image, i) => {
    const ext = EPUB_IMAGE_TYPES[image.mediaType];
    if (!ext) throw new EpubError(`The image "${image.name}" is ${image.mediaType}; books can hold JPEG, PNG, GIF and SVG images.`);
    const href = safeName(image.name, ext, taken);
    byName.set(image.name, href);
    files.push({ id: `img${i + 1}`, href: `images/${href}`, mediaType: image.mediaType, bytes: image.bytes });
  });
  let coverHref: string | undefined;
  if (book.cover) {
    const ext = EPUB_IMAGE_TYPES[book.cover.mediaType];
    if (!ext) throw new EpubError(`The cover is ${book.cover.mediaType}; use a JPEG, PNG or GIF picture.`);
    coverHref = `images/${safeName('cover', ext, taken)}`;
    files.push({ id: 'cover-image', href: coverHref, mediaType: book.cover.mediaType, bytes: book.cover.bytes, properties: 'cover-image' });
  }

  const chapters = book.chapters.map((chapter, i) => {
    const heading = xmlSafe(chapter.title.trim()) || `Chapter ${i + 1}`;
    const html = chapter.format === 'markdown' ? markdownToHtml(chapter.content, { html: true }) : chapter.content;
    const body = cleanChapter(html, { chapter: i + 1, images: byName, notes });
    // A chapter whose text begins with its own title as a heading keeps that one heading, not two.
    const titled = opensWithTitle(body, heading);
    return { id: `chapter-${i + 1}`, href: `chapter-${String(i + 1).padStart(3, '0')}.xhtml`, title: heading, body, titled };
  });
  return { title, language, author, notes, files, coverHref, chapters };
}

/**
 * What making the book would change or complain about, without making it: the notes of buildEpub
 * (dropped elements, missing images, links that lead nowhere), or the error that stops it. For
 * showing as the book is written, before anyone downloads it.
 */
export function reviewBook(book: EpubBook): { notes: string[]; error?: string } {
  try {
    return { notes: [...prepare(book).notes] };
  } catch (error) {
    if (error instanceof EpubError) return { notes: [], error: error.message };
    throw error;
  }
}

export function buildEpub(book: EpubBook): EpubResult {
  const { title, language, author, notes, files, coverHref, chapters } = prepare(book);

  const identifier = book.identifier ?? `urn:uuid:${uuid()}`;
  const modified = (book.modified ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const text = (s: string) => strToU8(s);
  const contents: Zippable = {};
  contents.mimetype = [strToU8('application/epub+zip'), { level: 0 }];
  contents['META-INF/container.xml'] = text(`<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
`);
  const oebps: Record<string, Uint8Array> = {};
  oebps['style.css'] = text(STYLE);
  if (coverHref) {
    oebps['cover.xhtml'] = text(
      xhtml(
        title,
        language,
        `<section class="cover" epub:type="cover"><img src="${escapeXml(coverHref)}" alt="${escapeXml(`Cover: ${title}`)}"/></section>`,
      ),
    );
  }
  const tocItems = chapters.map((c) => `      <li><a href="${c.href}">${escapeXml(c.title)}</a></li>`).join('\n');
  oebps['nav.xhtml'] = text(
    xhtml(
      title,
      language,
      `<nav epub:type="toc" id="toc">
  <h1>Contents</h1>
  <ol>
${tocItems}
  </ol>
</nav>
<nav epub:type="landmarks" hidden="hidden">
  <h2>Landmarks</h2>
  <ol>
${coverHref ? '    <li><a epub:type="cover" href="cover.xhtml">Cover</a></li>\n' : ''}    <li><a epub:type="bodymatter" href="${chapters[0]!.href}">${escapeXml(chapters[0]!.title)}</a></li>
  </ol>
</nav>`,
    ),
  );
  for (const c of chapters) {
    oebps[c.href] = text(
      xhtml(
        c.title,
        language,
        `<section epub:type="chapter" id="${c.id}">\n${c.titled ? '' : `<h1>${escapeXml(c.title)}</h1>\n`}${c.body}\n</section>`,
      ),
    );
  }
  oebps['toc.ncx'] = text(`<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1" xml:lang="${escapeXml(language)}">
  <head>
    <meta name="dtb:uid" content="${escapeXml(identifier)}"/>
    <meta name="dtb:depth" content="1"/>
    <meta name="dtb:totalPageCount" content="0"/>
    <meta name="dtb:maxPageNumber" content="0"/>
  </head>
  <docTitle><text>${escapeXml(title)}</text></docTitle>
  <navMap>
${chapters.map((c, i) => `    <navPoint id="nav-${i + 1}" playOrder="${i + 1}"><navLabel><text>${escapeXml(c.title)}</text></navLabel><content src="${c.href}"/></navPoint>`).join('\n')}
  </navMap>
</ncx>
`);
  for (const file of files) oebps[file.href] = file.bytes;

  const manifest = [
    '    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
    '    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>',
    '    <item id="style" href="style.css" media-type="text/css"/>',
    ...(coverHref ? ['    <item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>'] : []),
    ...chapters.map((c) => `    <item id="${c.id}" href="${c.href}" media-type="application/xhtml+xml"/>`),
    ...files.map(
      (f) =>
        `    <item id="${f.id}" href="${escapeXml(f.href)}" media-type="${f.mediaType}"${f.properties ? ` properties="${f.properties}"` : ''}/>`,
    ),
  ].join('\n');
  const spine = [
    ...(coverHref ? ['    <itemref idref="cover" linear="yes"/>'] : []),
    ...chapters.map((c) => `    <itemref idref="${c.id}"/>`),
  ].join('\n');
  oebps['content.opf'] = text(`<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="${escapeXml(language)}">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="book-id">${escapeXml(identifier)}</dc:identifier>
    <dc:title>${escapeXml(title)}</dc:title>
    <dc:language>${escapeXml(language)}</dc:language>
${author ? `    <dc:creator id="author">${escapeXml(author)}</dc:creator>\n    <meta refines="#author" property="role" scheme="marc:relators">aut</meta>\n` : ''}    <meta property="dcterms:modified">${modified}</meta>
${coverHref ? '    <meta name="cover" content="cover-image"/>\n' : ''}  </metadata>
  <manifest>
${manifest}
  </manifest>
  <spine toc="ncx">
${spine}
  </spine>
</package>
`);
  for (const [name, bytes] of Object.entries(oebps)) contents[`OEBPS/${name}`] = bytes;
  return { bytes: zipSync(contents, { level: 6 }), notes: [...notes] };
}
