/**
 * One CSV cell, quoted as CSV needs. Text that a spreadsheet would run as a formula (starting with
 * = + - @, a tab or a carriage return) gets a leading apostrophe (OWASP's advice against CSV injection).
 */
export function csvCell(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r']/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
