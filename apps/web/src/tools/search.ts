import { compareNames } from '../shared/text-order';

/**
 * Tool search: ranks by name, then keywords, then description. Every term must match some word of a
 * tool; a term matches a word exactly, as its beginning, inside it (so 'cod' finds 'barcode'), as a
 * plural ('codes' finds what 'code' finds), or with small typos (one edit for terms of 4+ letters, two
 * for 8+, a swap of neighbours counting as one, against the word's beginning too: 'base46' finds
 * Base64, 'paswo' finds password).
 *
 * A term that matches a word exactly, at its beginning, inside it or as its plural keeps matching as
 * letters are taken off its end, so what a finished word finds by its letters is found all the while
 * it is typed: the search box's suggestions narrow as a word grows and never drop such a tool on the
 * way. (A typo match can appear late: 'saf' is no word yet, 'safe' is a typo of 'save'.)
 */
export interface Searchable {
  name: string;
  keywords: string[];
  description: string;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

function allowedEdits(term: string): number {
  if (term.length >= 8) return 2;
  if (term.length >= 4) return 1;
  return 0;
}

/** Exact 1, beginning 0.8, inside 0.6; 0 when the word does not hold the term. */
function literalMatch(term: string, word: string): number {
  if (word === term) return 1;
  if (word.startsWith(term)) return 0.8;
  if (word.includes(term)) return 0.6;
  return 0;
}

/** The singular of an English plural term ('codes' → 'code', 'boxes' → 'box'), if it looks like one. */
function singulars(term: string): string[] {
  if (term.length < 4 || !term.endsWith('s') || term.endsWith('ss')) return [];
  const forms = [term.slice(0, -1)];
  if (term.endsWith('es')) forms.push(term.slice(0, -2));
  return forms;
}

/** Whether the term is within its allowed edits of the word or of a beginning of it. */
function nearlyMatches(term: string, word: string): boolean {
  const edits = allowedEdits(term);
  if (edits === 0) return false;
  for (let length = Math.max(1, term.length - edits); length <= Math.min(word.length, term.length + edits); length++) {
    if (editDistance(term, word.slice(0, length)) <= edits) return true;
  }
  return false;
}

/** How well one query term matches a list of words: 1 exact, 0.8 beginning, 0.6 inside, 0.55 plural, 0.5 typo, 0 none. */
function termMatch(term: string, candidates: string[], typos: boolean): number {
  let best = 0;
  for (const word of candidates) {
    best = Math.max(best, literalMatch(term, word));
    if (best === 1) return 1;
    for (const singular of singulars(term)) if (literalMatch(singular, word) > 0) best = Math.max(best, 0.55);
    if (typos && best < 0.5 && nearlyMatches(term, word)) best = 0.5;
  }
  return best;
}

export interface SearchOptions {
  /** Forgive small typos (default true). */
  typos?: boolean;
}

export function score(item: Searchable, query: string, { typos = true }: SearchOptions = {}): number {
  const terms = words(query);
  if (terms.length === 0) return 0;
  const name = words(item.name);
  const keywords = item.keywords.flatMap(words);
  const description = words(item.description);
  let total = 0;
  for (const term of terms) {
    const s = Math.max(termMatch(term, name, typos) * 3, termMatch(term, keywords, typos) * 2, termMatch(term, description, typos));
    if (s === 0) return 0;
    total += s;
  }
  if (item.name.toLowerCase().includes(query.trim().toLowerCase())) total += 2;
  return total;
}

export function search<T extends Searchable>(items: readonly T[], query: string, options: SearchOptions = {}): T[] {
  return items
    .map((item) => ({ item, s: score(item, query, options) }))
    .filter((r) => r.s > 0)
    .sort((a, b) => b.s - a.s || compareNames(a.item.name, b.item.name))
    .map((r) => r.item);
}
