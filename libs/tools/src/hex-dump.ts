/**
 * A classic hex dump (as `hexdump -C` prints it): offset, 16 bytes in two groups of eight, and the
 * printable ASCII characters between bars.
 */
export function hexDump(bytes: Uint8Array, startOffset = 0): string {
  const lines: string[] = [];
  for (let row = 0; row < bytes.length; row += 16) {
    const slice = bytes.subarray(row, row + 16);
    let hex = '';
    let ascii = '';
    for (let i = 0; i < 16; i++) {
      if (i === 8) hex += ' ';
      const b = slice[i];
      hex += b === undefined ? '   ' : `${b.toString(16).padStart(2, '0')} `;
      if (b !== undefined) ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
    }
    lines.push(`${(startOffset + row).toString(16).padStart(8, '0')}  ${hex} |${ascii}|`);
  }
  return lines.join('\n');
}
