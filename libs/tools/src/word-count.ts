/**
 * Text statistics with Intl.Segmenter: words as the locale's word breaker finds them (so Chinese,
 * Japanese and Thai, written without spaces, are counted right), user-perceived characters (grapheme
 * clusters: an emoji with skin tone or a flag is one), sentences, paragraphs and lines, reading and
 * speaking time, and the most frequent words.
 */

export interface TextStats {
  words: number;
  /** Grapheme clusters, as people count characters. */
  characters: number;
  charactersWithoutSpaces: number;
  sentences: number;
  /** Blocks of text separated by blank lines. */
  paragraphs: number;
  /** Lines holding text... or not: every line, as an editor numbers them (0 for empty text). */
  lines: number;
  /** Minutes at READING_WPM and SPEAKING_WPM. */
  readingMinutes: number;
  speakingMinutes: number;
  /** Most frequent words (lowercased), most frequent first, ties alphabetically. */
  topWords: Array<{ word: string; count: number }>;
}

/** Average silent reading speed of adults for non-fiction (Brysbaert, 2019). */
export const READING_WPM = 238;
/** A comfortable speaking pace for presentations. */
export const SPEAKING_WPM = 150;

const SPACE = /^\s+$/u;

export interface CountOptions {
  /** A BCP 47 locale for the segmenters (default: the runtime's). */
  locale?: string;
  /** How many of the most frequent words to return (default 10). */
  top?: number;
  /** Words to leave out of the most frequent list (compared lowercased). */
  ignore?: ReadonlySet<string>;
  /** Called now and then with the fraction done (for a progress bar on large texts). */
  onProgress?: (fraction: number) => void;
}

export function countText(text: string, options: CountOptions = {}): TextStats {
  const words = new Intl.Segmenter(options.locale, { granularity: 'word' });
  const graphemes = new Intl.Segmenter(options.locale, { granularity: 'grapheme' });
  const sentences = new Intl.Segmenter(options.locale, { granularity: 'sentence' });

  let wordCount = 0;
  const frequency = new Map<string, number>();
  let step = 0;
  for (const segment of words.segment(text)) {
    if (!segment.isWordLike) continue;
    wordCount++;
    const word = segment.segment.toLocaleLowerCase(options.locale);
    if (!options.ignore?.has(word)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
    if (options.onProgress && ++step % 50_000 === 0) options.onProgress((segment.index / text.length) * 0.8);
  }

  let characters = 0;
  let spaces = 0;
  for (const { segment } of graphemes.segment(text)) {
    characters++;
    if (SPACE.test(segment)) spaces++;
  }

  let sentenceCount = 0;
  for (const { segment } of sentences.segment(text)) if (/[\p{L}\p{N}]/u.test(segment)) sentenceCount++;
  options.onProgress?.(1);

  const paragraphs = text.split(/\n\s*\n/).filter((p) => p.trim() !== '').length;
  const lines = text === '' ? 0 : text.split(/\r\n|\r|\n/).length;
  const topWords = [...frequency]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, options.top ?? 10)
    .map(([word, count]) => ({ word, count }));

  return {
    words: wordCount,
    characters,
    charactersWithoutSpaces: characters - spaces,
    sentences: sentenceCount,
    paragraphs,
    lines,
    readingMinutes: wordCount / READING_WPM,
    speakingMinutes: wordCount / SPEAKING_WPM,
    topWords,
  };
}

/** "< 1 min", "1 min", "4 min", "1 h 12 min". */
export function formatMinutes(minutes: number): string {
  if (minutes === 0) return '0 min';
  if (minutes < 1) return '< 1 min';
  const total = Math.round(minutes);
  return total < 60 ? `${total} min` : `${Math.floor(total / 60)} h${total % 60 ? ` ${total % 60} min` : ''}`;
}

/** Common English words, left out of the most frequent list when asked. */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and are as at be but by for from has have he her his i in is it its of on or she that the their them they this to was we were will with you your not no so if then than there these those do does did can could would should our us my me'.split(
    ' ',
  ),
);
