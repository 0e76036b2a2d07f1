import { describe, expect, it } from '@jest/globals';
import { epubcheck } from '@tinkerdesk/testing';
import { unzipSync, strFromU8 } from 'fflate';
import { buildEpub, EpubError, type EpubBook } from './epub.js';

// Books built by buildEpub, checked by epubcheck (Debian's package, the reference EPUB validator):
// covers, several chapters, images, Markdown and messy pasted HTML, non-Latin and right-to-left text.

/** A 2 × 2 red PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAwMDAxMDAAAANGQEDxRg5IAAAAABJRU5ErkJggg==',
  'base64',
);
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle cx="5" cy="5" r="4" fill="#4f46e5"/></svg>',
);

const full: EpubBook = {
  title: 'The Tinkerdesk Reader: 修理の本 & more',
  author: 'Ada "Tinker" Lovelace',
  language: 'en',
  cover: { name: 'cover.png', mediaType: 'image/png', bytes: PNG },
  images: [
    { name: 'red dot.png', mediaType: 'image/png', bytes: PNG },
    { name: 'logo.svg', mediaType: 'image/svg+xml', bytes: SVG },
  ],
  chapters: [
    {
      title: 'Getting started',
      format: 'markdown',
      content: `Some *emphasis*, **strong**, \`code\` and a [link](https://example.com).

![A red dot](red%20dot.png) and ![the logo](logo.svg) and ![missing](nowhere.png) and ![web](https://example.com/x.png)

| Tool | Use |
|---|---|
| Hammer | Nails |

- [x] done
- [ ] to do

[Jump](#later) · [Nowhere](#nothing) · [Relative](other.html)

<h2 id="later">Later</h2>

\`\`\`js
const a = 1 < 2 && 3 > 2;
\`\`\`
`,
    },
    {
      title: '中文章节：你好，世界',
      format: 'markdown',
      content: '# 第一节\n\n这是一个测试。日本語もあります。한국어도 있습니다. Ελληνικά, русский текст, emoji 📚✨.',
    },
    {
      title: 'مرحبا بالعالم',
      format: 'html',
      content: '<p dir="rtl" lang="ar">هذا نص عربي من اليمين إلى اليسار.</p><p lang="he" dir="rtl">שלום עולם</p>',
    },
    {
      title: 'Pasted from a web page',
      format: 'html',
      content: `<html><head><title>x</title><style>p{color:red}</style></head><body>
<center><font color="red">Old markup</font></center>
<p onclick="alert(1)" style="color: red" align="center" id="a">Paragraph <b>bold</b><br>line<img src="logo.svg"></p>
<p id="a">Duplicate id</p><p id="1bad">Bad id</p>
<script>alert(2)</script><iframe src="https://example.com"></iframe>
<form><input type="text" name="q"><button>Go</button></form>
<table border="1"><tr><td colspan="two">x</td><td colspan="2">y</td></tr></table>
<ul><li>unclosed item<li>another</ul>
<p>Entities: &nbsp; &copy; &amp; &lt;tag&gt; &#x1F600; control\u0001char</p>
</body></html>`,
    },
  ],
  modified: new Date('2026-11-23T10:00:00Z'),
};

describe('buildEpub', () => {
  it('makes a book with cover, chapters, images, Markdown, pasted HTML and non-Latin text that epubcheck accepts', async () => {
    const { bytes, notes } = buildEpub(full);
    expect(await epubcheck(bytes)).toEqual([]);
    const files = unzipSync(bytes);
    expect(Object.keys(files)[0]).toBe('mimetype');
    expect(strFromU8(files.mimetype!)).toBe('application/epub+zip');
    const nav = strFromU8(files['OEBPS/nav.xhtml']!);
    expect(nav).toContain('<li><a href="chapter-001.xhtml">Getting started</a></li>');
    expect(nav).toContain('中文章节：你好，世界');
    const first = strFromU8(files['OEBPS/chapter-001.xhtml']!);
    expect(first).toContain('<img src="images/red-dot.png" alt="A red dot"/>');
    expect(first).toContain('[missing]');
    expect(first).toContain('<a href="#later">Jump</a>');
    expect(first).not.toContain('href="#nothing"');
    const pasted = strFromU8(files['OEBPS/chapter-004.xhtml']!);
    expect(pasted).not.toMatch(/script|iframe|onclick|alert|<form|<input|align=/);
    expect(pasted).toContain('Old markup');
    expect(notes).toEqual(
      expect.arrayContaining([
        'Chapter 1: there is no image named "nowhere.png" under Images. Its description is shown instead.',
        'Chapter 1: the link to "other.html" leads outside the book and was made plain text.',
        'Chapter 4: <script> is not allowed in an EPUB chapter and was left out.',
      ]),
    );
    expect(strFromU8(files['OEBPS/content.opf']!)).toContain('<meta property="dcterms:modified">2026-11-23T10:00:00Z</meta>');
  });

  it('makes a minimal book (one chapter, no cover, no author) in another language that epubcheck accepts', async () => {
    const { bytes } = buildEpub({
      title: 'Kurz',
      author: '',
      language: 'de-CH',
      images: [],
      chapters: [{ title: '', format: 'markdown', content: 'Grüezi' }],
    });
    expect(await epubcheck(bytes)).toEqual([]);
    expect(strFromU8(unzipSync(bytes)['OEBPS/nav.xhtml']!)).toContain('>Chapter 1</a>');
  });

  it('explains what a book needs', () => {
    const base = {
      title: 'T',
      author: '',
      language: 'en',
      images: [],
      chapters: [{ title: 'A', format: 'markdown' as const, content: 'x' }],
    };
    expect(() => buildEpub({ ...base, title: '  ' })).toThrow(new EpubError('Give the book a title.'));
    expect(() => buildEpub({ ...base, chapters: [] })).toThrow('Add at least one chapter.');
    expect(() => buildEpub({ ...base, language: 'english please' })).toThrow(
      '"english please" is not a language tag: use one like en, fr, pt-BR or zh-Hans.',
    );
    expect(() => buildEpub({ ...base, images: [{ name: 'a.bmp', mediaType: 'image/bmp', bytes: new Uint8Array(1) }] })).toThrow(
      'The image "a.bmp" is image/bmp; books can hold JPEG, PNG, GIF and SVG images.',
    );
  });
});
