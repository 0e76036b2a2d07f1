import { describe, expect, it } from '@jest/globals';
import { epubcheck } from './epubcheck.js';

// A reference program that cannot run fails with a message naming what to install (it once failed
// as "ENOENT ... report.json", the spawn error swallowed).

describe('epubcheck', () => {
  it('names Java and the packages when java is not installed', async () => {
    await expect(epubcheck(new Uint8Array([1, 2, 3]), '/nonexistent/java')).rejects.toThrow(
      'epubcheck needs Java, which is not installed: apt-get install epubcheck default-jre-headless',
    );
  });

  it('reports a broken book as messages, not as a failure', async () => {
    const messages = await epubcheck(new TextEncoder().encode('not a zip at all'));
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.some((m) => m.severity === 'FATAL' || m.severity === 'ERROR')).toBe(true);
  });
});
