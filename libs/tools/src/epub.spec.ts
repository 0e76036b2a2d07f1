import { describe, expect, it } from '@jest/globals';
import { strFromU8, unzipSync } from 'fflate';
import { buildEpub, reviewBook, type EpubBook } from './epub.js';

const book = (chapters: EpubBook['chapters'], extra: Partial<EpubBook> = {}): EpubBook => ({
  title: 'A book',
  author: 'Ada',
  language: 'en',
  images: [],
  chapters,
  ...extra,
});

function chapterXhtml(b: EpubBook, n = 1): string {
  const files = unzipSync(buildEpub(b).bytes);
  return strFromU8(files[`OEBPS/chapter-${String(n).padStart(3, '0')}.xhtml`]!);
}

const headings = (xhtml: string): string[] => [...xhtml.matchAll(/<h([1-6])>([^<]*)<\/h\1>/g)].map((m) => `h${m[1]} ${m[2]}`);

describe('chapter headings', () => {
  it('keeps one heading when the text opens with the chapter title (any case, any spacing)', () => {
    expect(
      headings(chapterXhtml(book([{ title: 'Getting started', format: 'markdown', content: '# Getting  Started\n\nText.' }]))),
    ).toEqual(['h1 Getting  Started']);
    expect(
      headings(chapterXhtml(book([{ title: 'Getting started', format: 'html', content: '<h2>getting started</h2><p>Text.</p>' }]))),
    ).toEqual(['h2 getting started']);
  });

  it('adds the title as a heading when the text opens with anything else', () => {
    expect(headings(chapterXhtml(book([{ title: 'Intro', format: 'markdown', content: '# Something else\n\nText.' }])))).toEqual([
      'h1 Intro',
      'h1 Something else',
    ]);
    expect(headings(chapterXhtml(book([{ title: 'Intro', format: 'markdown', content: 'Text first.\n\n# Intro' }])))).toEqual([
      'h1 Intro',
      'h1 Intro',
    ]);
  });
});

describe('reviewBook', () => {
  it('says before the download what making the book will change', () => {
    const review = reviewBook(
      book([{ title: 'One', format: 'html', content: '<p>Hi <img src="nowhere.png" alt="a map"></p><script>x()</script>' }]),
    );
    expect(review.error).toBeUndefined();
    expect(review.notes).toEqual([
      'Chapter 1: there is no image named "nowhere.png" under Images. Its description is shown instead.',
      'Chapter 1: <script> is not allowed in an EPUB chapter and was left out.',
    ]);
    // The same notes as the book itself reports.
    expect(
      buildEpub(book([{ title: 'One', format: 'html', content: '<p>Hi <img src="nowhere.png" alt="a map"></p><script>x()</script>' }]))
        .notes,
    ).toEqual(review.notes);
  });

  it('answers what stops the book instead of throwing', () => {
    expect(reviewBook(book([{ title: 'One', format: 'markdown', content: 'x' }], { title: ' ' }))).toEqual({
      notes: [],
      error: 'Give the book a title.',
    });
  });
});
