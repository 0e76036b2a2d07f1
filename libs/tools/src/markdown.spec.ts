import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { firstHeading, htmlDocument, markdownToHtml } from './markdown.js';

interface SpecExample {
  markdown: string;
  html: string;
  section: string;
  number: number;
}

// The CommonMark spec's own examples (the commonmark-spec package); the spec text shows tabs as '→'.
const require = createRequire(import.meta.url);
const spec = (require('commonmark-spec') as { tests: SpecExample[] }).tests.map((t) => ({
  ...t,
  markdown: t.markdown.replace(/→/g, '\t'),
  html: t.html.replace(/→/g, '\t'),
}));

describe('markdownToHtml: CommonMark', () => {
  it('has the whole published example set', () => {
    expect(spec.length).toBeGreaterThanOrEqual(650);
  });

  it.each(spec.map((t) => [t.number, t.section, t] as const))('example %i (%s)', (_n, _section, example) => {
    expect(markdownToHtml(example.markdown, { gfm: false })).toBe(example.html);
  });
});

describe('markdownToHtml: GitHub Flavored Markdown', () => {
  it('renders tables with alignment', () => {
    const html = markdownToHtml('| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n');
    expect(html).toBe(
      '<table>\n<thead>\n<tr>\n<th style="text-align:left">a</th>\n<th style="text-align:center">b</th>\n<th style="text-align:right">c</th>\n</tr>\n</thead>\n' +
        '<tbody>\n<tr>\n<td style="text-align:left">1</td>\n<td style="text-align:center">2</td>\n<td style="text-align:right">3</td>\n</tr>\n</tbody>\n</table>\n',
    );
  });

  it('renders strikethrough', () => {
    expect(markdownToHtml('~~gone~~ kept')).toBe('<p><s>gone</s> kept</p>\n');
  });

  it('renders task lists with disabled checkboxes and marks the list', () => {
    const html = markdownToHtml('- [ ] todo\n- [x] done\n- [X] also done\n- plain\n- [y] not a task\n');
    expect(html).toBe(
      '<ul class="contains-task-list">\n' +
        '<li class="task-list-item"><input class="task-list-item-checkbox" type="checkbox" disabled=""> todo</li>\n' +
        '<li class="task-list-item"><input class="task-list-item-checkbox" type="checkbox" disabled="" checked=""> done</li>\n' +
        '<li class="task-list-item"><input class="task-list-item-checkbox" type="checkbox" disabled="" checked=""> also done</li>\n' +
        '<li>plain</li>\n<li>[y] not a task</li>\n</ul>\n',
    );
  });

  it('marks task items in ordered and nested lists, and in loose lists', () => {
    const html = markdownToHtml('1. [x] one\n\n2. [ ] two\n   - [ ] nested\n');
    expect(html).toContain('<ol class="contains-task-list">');
    expect(html).toContain('<ul class="contains-task-list">');
    expect(html.match(/task-list-item-checkbox/g)).toHaveLength(3);
  });

  it('does not treat "[ ]" outside a list item start as a task', () => {
    expect(markdownToHtml('[ ] not in a list\n')).toBe('<p>[ ] not in a list</p>\n');
    expect(markdownToHtml('- text [ ] later\n')).toBe('<ul>\n<li>text [ ] later</li>\n</ul>\n');
  });

  it('autolinks URLs, www. addresses and e-mail addresses', () => {
    expect(markdownToHtml('See https://example.com/a?b=1 now')).toBe(
      '<p>See <a href="https://example.com/a?b=1">https://example.com/a?b=1</a> now</p>\n',
    );
    expect(markdownToHtml('Visit www.commonmark.org.')).toBe('<p>Visit <a href="http://www.commonmark.org">www.commonmark.org</a>.</p>\n');
    expect(markdownToHtml('Mail foo@bar.example')).toBe('<p>Mail <a href="mailto:foo@bar.example">foo@bar.example</a></p>\n');
  });

  it('has no GFM additions when gfm is off', () => {
    expect(markdownToHtml('~~a~~ https://example.com', { gfm: false })).toBe('<p>~~a~~ https://example.com</p>\n');
    expect(markdownToHtml('- [x] a', { gfm: false })).toBe('<ul>\n<li>[x] a</li>\n</ul>\n');
  });
});

describe('markdownToHtml: options and safety of the source', () => {
  it('keeps raw HTML by default and escapes it when html is off', () => {
    expect(markdownToHtml('<b>x</b>')).toBe('<p><b>x</b></p>\n');
    expect(markdownToHtml('<b>x</b>', { html: false })).toBe('<p>&lt;b&gt;x&lt;/b&gt;</p>\n');
  });

  it('turns single newlines into <br /> only with breaks, in both modes', () => {
    expect(markdownToHtml('a\nb', { breaks: true, gfm: false })).toBe('<p>a<br />\nb</p>\n');
    expect(markdownToHtml('a\nb')).toBe('<p>a\nb</p>\n');
    expect(markdownToHtml('a\nb', { breaks: true })).toBe('<p>a<br />\nb</p>\n');
  });

  it('never produces javascript: links from Markdown links', () => {
    expect(markdownToHtml('[x](javascript:alert(1))')).toBe('<p>[x](javascript:alert(1))</p>\n');
    expect(markdownToHtml('<javascript:alert(1)>')).not.toContain('href="javascript');
  });

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.boolean(), fc.boolean(), (text, gfm, html) => {
        expect(typeof markdownToHtml(text, { gfm, html })).toBe('string');
      }),
      { numRuns: 300 },
    );
  });

  it('converts Markdown-shaped random documents without throwing', () => {
    const piece = fc.constantFrom(
      '# ',
      '- ',
      '1. ',
      '> ',
      '```\n',
      '|a|b|\n|-|-|\n',
      '[ ] ',
      '~~',
      '**',
      '_',
      '`',
      '\n',
      '\n\n',
      '    ',
      'www.x.org ',
      'text ',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (parts) => {
        expect(typeof markdownToHtml(parts.join(''))).toBe('string');
      }),
      { numRuns: 300 },
    );
  });
});

describe('htmlDocument and firstHeading', () => {
  it('wraps a fragment in a complete document with an escaped title', () => {
    const doc = htmlDocument('<p>x</p>\n', 'A <b> & "c"');
    expect(doc).toMatch(/^<!doctype html>\n<html>/);
    expect(doc).toContain('<meta charset="utf-8">');
    expect(doc).toContain('<title>A &lt;b&gt; &amp; &quot;c&quot;</title>');
    expect(doc).toContain('<body>\n<p>x</p>\n</body>');
  });

  it('finds the first ATX heading', () => {
    expect(firstHeading('intro\n\n## Release notes ##\n# Later')).toBe('Release notes');
    expect(firstHeading('no heading here\n#nospace')).toBeUndefined();
  });
});
