/**
 * ROT13: each ASCII letter moves 13 places in its alphabet, keeping its case; everything else
 * (digits, punctuation, accented and non-Latin letters, emoji) is left exactly as it is. Applying it
 * twice gives the input back, so encoding and decoding are the same operation.
 */
export function rot13(text: string): string {
  return text.replace(/[A-Za-z]/g, (letter) => {
    const base = letter <= 'Z' ? 65 : 97;
    return String.fromCharCode(((letter.charCodeAt(0) - base + 13) % 26) + base);
  });
}
