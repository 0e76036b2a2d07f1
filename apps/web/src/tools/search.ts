/**
 * Tool search: ranks by name, then keywords, then description, and forgives small typos
 * (one edit for words of 4+ letters, two for 8+; a swap of neighbours counts as one edit,
 * so 'base46' finds Base64).
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

/** How well one query term matches a list of words: 1 exact, 0.8 prefix, 0.5 typo, 0 none. */
function termMatch(term: string, candidates: string[]): number {
  let best = 0;
  for (const word of candidates) {
    if (word === term) return 1;
    if (word.startsWith(term) && term.length >= 2) best = Math.max(best, 0.8);
    else if (term.length >= 4 && word.includes(term)) best = Math.max(best, 0.6);
    else if (
      allowedEdits(term) > 0 &&
      Math.abs(word.length - term.length) <= allowedEdits(term) &&
      editDistance(term, word) <= allowedEdits(term)
    ) {
      best = Math.max(best, 0.5);
    }
  }
  return best;
}

export function score(item: Searchable, query: string): number {
  const terms = words(query);
  if (terms.length === 0) return 0;
  const name = words(item.name);
  const keywords = item.keywords.flatMap(words);
  const description = words(item.description);
  let total = 0;
  for (const term of terms) {
    const s = Math.max(termMatch(term, name) * 3, termMatch(term, keywords) * 2, termMatch(term, description));
    if (s === 0) return 0;
    total += s;
  }
  if (item.name.toLowerCase().includes(query.trim().toLowerCase())) total += 2;
  return total;
}

export function search<T extends Searchable>(items: readonly T[], query: string): T[] {
  return items
    .map((item) => ({ item, s: score(item, query) }))
    .filter((r) => r.s > 0)
    .sort((a, b) => b.s - a.s || a.item.name.localeCompare(b.item.name))
    .map((r) => r.item);
}
