/**
 * Page ranges as people write them in print dialogs: "1-3, 5, 8-" (8 to the end), "-4" (1 to 4), or empty
 * for all pages. Pages come back in the order written, without repeats.
 */
export class PageRangeError extends Error {
  override name = 'PageRangeError';
}

export function parsePageRange(text: string, pageCount: number): number[] {
  const trimmed = text.trim();
  if (trimmed === '' || /^all$/i.test(trimmed)) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const pages: number[] = [];
  const seen = new Set<number>();
  const check = (page: number) => {
    if (page < 1) throw new PageRangeError('Pages are counted from 1.');
    if (page > pageCount)
      throw new PageRangeError(`There is no page ${page}: this PDF has ${pageCount} ${pageCount === 1 ? 'page' : 'pages'}.`);
  };
  for (const part of trimmed.split(/[,;]/)) {
    const item = part.trim();
    if (item === '') continue;
    const match = /^(\d*)\s*[-–]\s*(\d*)$/.exec(item) ?? /^(\d+)$/.exec(item);
    if (!match || (match[1] === '' && match[2] === '')) {
      throw new PageRangeError(`"${item}" is not a page or a range: write pages like 1-3, 5, 8-.`);
    }
    const single = match.length === 2;
    const from = match[1] === '' ? 1 : Number(match[1]);
    const to = single ? from : match[2] === '' ? pageCount : Number(match[2]);
    check(from);
    check(to);
    if (to < from) throw new PageRangeError(`"${item}" runs backwards: write the lower page first.`);
    for (let page = from; page <= to; page++) {
      if (!seen.has(page)) {
        seen.add(page);
        pages.push(page);
      }
    }
  }
  if (pages.length === 0) throw new PageRangeError('Choose at least one page.');
  return pages;
}

/** The pixel size of a page of width × height points (1/72 inch) at dpi dots per inch. */
export function pagePixels(widthPt: number, heightPt: number, dpi: number): { width: number; height: number } {
  return { width: Math.max(1, Math.round((widthPt * dpi) / 72)), height: Math.max(1, Math.round((heightPt * dpi) / 72)) };
}
