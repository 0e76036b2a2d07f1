import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { countText, ENGLISH_STOP_WORDS, formatMinutes } from './word-count.js';

describe('countText', () => {
  it('counts words, characters, sentences, paragraphs and lines', () => {
    const stats = countText('Hello, world! This is a test.\n\nSecond paragraph here.\nWith two lines.');
    expect(stats).toMatchObject({ words: 12, sentences: 4, paragraphs: 2, lines: 4 });
    expect(stats.characters).toBe(69);
    expect(stats.charactersWithoutSpaces).toBe(69 - 12);
  });

  it('counts words in languages written without spaces', () => {
    expect(countText('我喜欢学习中文', { locale: 'zh' }).words).toBeGreaterThanOrEqual(3);
    expect(countText('私は日本語を勉強しています', { locale: 'ja' }).words).toBeGreaterThanOrEqual(4);
    expect(countText('ฉันรักภาษาไทย', { locale: 'th' }).words).toBeGreaterThanOrEqual(3);
  });

  it('counts user-perceived characters: an emoji with a skin tone, a flag, a combining accent are one each', () => {
    expect(countText('👋🏽🇨🇭e\u0301').characters).toBe(3);
  });

  it('does not count numbers-only punctuation as words, and counts contractions and numbers once', () => {
    expect(countText("it's 2024 — isn't it? ... !!!").words).toBe(4);
  });

  it('finds the most frequent words, case-insensitive, ties alphabetically, optionally without stop words', () => {
    const text = 'The cat and the dog. The Dog barked; the cat ran.';
    expect(countText(text, { top: 3 }).topWords).toEqual([
      { word: 'the', count: 4 },
      { word: 'cat', count: 2 },
      { word: 'dog', count: 2 },
    ]);
    expect(countText(text, { top: 2, ignore: ENGLISH_STOP_WORDS }).topWords.map((w) => w.word)).toEqual(['cat', 'dog']);
  });

  it('gives reading and speaking time from the word count', () => {
    const stats = countText('word '.repeat(476));
    expect(stats.readingMinutes).toBeCloseTo(2, 5);
    expect(stats.speakingMinutes).toBeCloseTo(476 / 150, 5);
  });

  it('is all zeros for empty text and never throws', () => {
    expect(countText('')).toMatchObject({ words: 0, characters: 0, sentences: 0, paragraphs: 0, lines: 0, topWords: [] });
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const s = countText(text);
        expect(s.charactersWithoutSpaces).toBeLessThanOrEqual(s.characters);
        expect(s.characters).toBeLessThanOrEqual(text.length);
        expect(s.words).toBeLessThanOrEqual(text.length);
      }),
    );
  });

  it('joining two texts with a blank line adds their words and paragraphs', () => {
    const wordy = fc
      .array(fc.constantFrom('alpha', 'beta', 'gamma', 'δέλτα', '1984'), { minLength: 1, maxLength: 20 })
      .map((w) => w.join(' '));
    fc.assert(
      fc.property(wordy, wordy, (a, b) => {
        const sum = countText(`${a}\n\n${b}`);
        expect(sum.words).toBe(countText(a).words + countText(b).words);
        expect(sum.paragraphs).toBe(2);
      }),
    );
  });
});

describe('formatMinutes', () => {
  it('says durations plainly', () => {
    expect(formatMinutes(0)).toBe('0 min');
    expect(formatMinutes(0.4)).toBe('< 1 min');
    expect(formatMinutes(4.4)).toBe('4 min');
    expect(formatMinutes(72)).toBe('1 h 12 min');
    expect(formatMinutes(120)).toBe('2 h');
  });
});
