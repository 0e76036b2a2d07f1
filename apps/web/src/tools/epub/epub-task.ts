import type { EpubBook, EpubResult } from '@tinkerdesk/tools/epub';

/** What the EPUB worker is asked: make the book, or only say what making it would change. */
export type EpubTask = { kind: 'build'; book: EpubBook } | { kind: 'review'; book: EpubBook };
export type EpubAnswer = { kind: 'build'; result: EpubResult } | { kind: 'review'; notes: string[]; error?: string };
