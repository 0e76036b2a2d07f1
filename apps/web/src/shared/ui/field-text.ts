import { formatCount } from './format';

/** A text field shows up to about this much (a field holding megabytes makes the page slow to type in). */
export const FIELD_LIMIT = 100_000;

/**
 * What a read-only Output field shows of a result: all of it, or its start cut at a line end, with a
 * note saying so (Copy and Download always give the whole result).
 */
export function fieldText(text: string, limit = FIELD_LIMIT): { shown: string; note?: string } {
  if (text.length <= limit) return { shown: text };
  const end = Math.max(text.lastIndexOf('\n', limit) + 1, 1);
  return {
    shown: text.slice(0, end),
    note: `showing the first ${formatCount(end)} of ${formatCount(text.length)} characters; Copy and Download give all of it`,
  };
}
