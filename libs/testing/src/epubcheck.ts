import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's epubcheck (package `epubcheck`, run with Java): the reference EPUB validator. */
export const EPUBCHECK_JAR = '/usr/share/java/epubcheck.jar';

export interface EpubcheckMessage {
  severity: string;
  ID: string;
  message: string;
  locations: Array<{ path: string; line: number }>;
}

/**
 * Checks a book with epubcheck and answers its messages of severity WARNING, ERROR or FATAL. epubcheck
 * exits 1 when it reports errors (the report says which); a program that cannot run at all (no Java,
 * no epubcheck) fails with a message naming what to install, never as a missing report file.
 */
export async function epubcheck(bytes: Uint8Array, java = 'java'): Promise<EpubcheckMessage[]> {
  const dir = await mkdtemp(join(tmpdir(), 'tinkerdesk-epubcheck-'));
  const file = join(dir, 'book.epub');
  const report = join(dir, 'report.json');
  try {
    await writeFile(file, bytes);
    const failure = await new Promise<Error | undefined>((resolve) => {
      execFile(java, ['-jar', EPUBCHECK_JAR, file, '--json', report], { timeout: 120_000 }, (error, _stdout, stderr) => {
        if (!error) return resolve(undefined);
        const spawnCode = (error as NodeJS.ErrnoException).code;
        if (spawnCode === 'ENOENT') {
          return resolve(new Error('epubcheck needs Java, which is not installed: apt-get install epubcheck default-jre-headless'));
        }
        if (error.code === 1) return resolve(undefined);
        resolve(new Error(`epubcheck (java -jar ${EPUBCHECK_JAR}) failed (${error.code ?? error.signal}): ${stderr.trim().slice(0, 500)}`));
      });
    });
    if (failure) throw failure;
    let text: string;
    try {
      text = await readFile(report, 'utf8');
    } catch {
      throw new Error(`epubcheck wrote no report: is the package epubcheck installed (${EPUBCHECK_JAR})? apt-get install epubcheck`);
    }
    const parsed = JSON.parse(text) as { messages: EpubcheckMessage[] };
    return parsed.messages.filter((m) => m.severity === 'ERROR' || m.severity === 'FATAL' || m.severity === 'WARNING');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
