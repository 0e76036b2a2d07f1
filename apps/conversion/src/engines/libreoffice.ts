import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import libreOfficeConvert from 'libreoffice-convert';
import type { FormatKind } from '@tinkerdesk/contracts';
import { ConversionFailure } from './failure.js';
import { DEFAULT_OFFICE_BOUNDS, inspectOfficeFile, type OfficeBounds } from './office-inspection.js';

/**
 * Documents, spreadsheets and presentations with LibreOffice, one document at a time per soffice.
 *
 * Warm (the default where Debian's python3-uno is installed): one soffice per engine, started once
 * with a private profile and a UNO pipe, driven by bin/uno-bridge.py; measured here, an RTF to PDF
 * takes 0.03–0.1 s warm against 1.1–1.5 s cold. soffice is restarted after `restartAfter`
 * conversions (as Gotenberg does: memory it leaks goes with it), and killed and restarted when a
 * conversion passes its deadline or the bridge loses it.
 * Cold: libreoffice-convert (a fresh profile and process per document), with the same deadline
 * (SIGKILL); used where python3-uno is missing, and by the benchmark to compare.
 */

export interface OfficeRequest {
  kind: Extract<FormatKind, 'document' | 'spreadsheet' | 'presentation'>;
  /** Source format id (docx, csv, html...). */
  from: string;
  /** Target format id (pdf, docx, csv...). */
  to: string;
}

export interface OfficeEngineOptions {
  mode: 'warm' | 'cold';
  /** A conversion longer than this is killed and fails. */
  timeoutMs: number;
  /** Warm: soffice is restarted after this many conversions. */
  restartAfter: number;
  sofficePath?: string;
  pythonPath?: string;
  /** Bounds on what a ZIP-based office file unpacks to (ZIP bombs). */
  bounds?: OfficeBounds;
}

interface ExportFilter {
  filter: string;
  options?: string;
}

/** LibreOffice's export filter per kind of document and target. */
const EXPORT: Record<OfficeRequest['kind'], Record<string, ExportFilter>> = {
  document: {
    pdf: { filter: 'writer_pdf_Export' },
    docx: { filter: 'MS Word 2007 XML' },
    odt: { filter: 'writer8' },
    txt: { filter: 'Text (encoded)', options: 'UTF8,LF' },
  },
  spreadsheet: {
    pdf: { filter: 'calc_pdf_Export' },
    xlsx: { filter: 'Calc MS Excel 2007 XML' },
    ods: { filter: 'calc8' },
    // comma, double quote, UTF-8 (76), from line 1, standard cell formats, language default, quote
    // only text that needs it (7: false), numbers as shown (9: true)
    csv: { filter: 'Text - txt - csv (StarCalc)', options: '44,34,76,1,,0,false,true,true' },
  },
  presentation: {
    pdf: { filter: 'impress_pdf_Export' },
    pptx: { filter: 'Impress MS PowerPoint 2007 XML' },
    odp: { filter: 'impress8' },
  },
};

/** Import filters where LibreOffice's guess is not what users mean. */
const IMPORT: Record<string, ExportFilter> = {
  // HTML opens as a Writer document (not Writer/Web, which has no PDF export of its own).
  html: { filter: 'HTML (StarWriter)' },
  // Plain text as UTF-8.
  txt: { filter: 'Text (encoded)', options: 'UTF8' },
  // CSV: comma, double quote, UTF-8, from line 1.
  csv: { filter: 'Text - txt - csv (StarCalc)', options: '44,34,76,1' },
};

export function exportFilter(request: OfficeRequest): ExportFilter {
  const found = EXPORT[request.kind][request.to];
  if (!found) throw new ConversionFailure('unsupported', `LibreOffice cannot make ${request.to} of a ${request.kind}`);
  return found;
}

const BRIDGE = fileURLToPath(new URL('../../bin/uno-bridge.py', import.meta.url));

/** True when warm mode can run here: the bridge script and Debian's python3 with the uno module. */
export function warmModeAvailable(pythonPath = '/usr/bin/python3'): boolean {
  return existsSync(BRIDGE) && existsSync(pythonPath) && existsSync('/usr/lib/python3/dist-packages/uno.py');
}

interface BridgeAnswer {
  id?: number;
  ok?: boolean;
  ready?: boolean;
  error?: 'password' | 'unreadable' | 'export' | 'bridge';
  detail?: string;
}

/** One soffice with its UNO bridge. */
class WarmOffice {
  private readonly waiting = new Map<number, (answer: BridgeAnswer) => void>();
  private nextId = 1;
  conversions = 0;

  private constructor(
    private readonly soffice: ChildProcess,
    private readonly bridge: ChildProcess,
    private readonly profile: string,
  ) {}

  static async start(options: OfficeEngineOptions): Promise<WarmOffice> {
    const profile = await mkdtemp(join(tmpdir(), 'tinkerdesk-soffice-'));
    const pipe = `tinkerdesk-${process.pid}-${randomBytes(4).toString('hex')}`;
    const soffice = spawn(
      options.sofficePath ?? 'soffice',
      [
        `-env:UserInstallation=file://${profile}`,
        '--headless',
        '--invisible',
        '--nologo',
        '--norestore',
        '--nodefault',
        '--nolockcheck',
        '--nofirststartwizard',
        `--accept=pipe,name=${pipe};urp;StarOffice.ComponentContext`,
      ],
      { stdio: 'ignore', detached: true },
    );
    const bridge = spawn(options.pythonPath ?? '/usr/bin/python3', [BRIDGE, pipe], { stdio: ['pipe', 'pipe', 'ignore'] });
    const office = new WarmOffice(soffice, bridge, profile);
    const lines = createInterface({ input: bridge.stdout! });
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('LibreOffice did not start within 30 s')), 30_000);
      lines.on('line', (line) => {
        let answer: BridgeAnswer;
        try {
          answer = JSON.parse(line) as BridgeAnswer;
        } catch {
          return;
        }
        if (answer.ready) {
          clearTimeout(timer);
          resolve();
        } else if (answer.id !== undefined) {
          office.waiting.get(answer.id)?.(answer);
          office.waiting.delete(answer.id);
        }
      });
      bridge.on('exit', () => {
        clearTimeout(timer);
        reject(new Error('the LibreOffice bridge exited'));
        for (const settle of office.waiting.values()) settle({ error: 'bridge', detail: 'LibreOffice stopped' });
        office.waiting.clear();
      });
    });
    try {
      await ready;
    } catch (error) {
      await office.stop();
      throw error;
    }
    return office;
  }

  convert(request: Record<string, unknown>, timeoutMs: number): Promise<BridgeAnswer | 'timeout'> {
    const id = this.nextId++;
    this.conversions++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve('timeout');
      }, timeoutMs);
      this.waiting.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      this.bridge.stdin!.write(`${JSON.stringify({ ...request, id })}\n`);
    });
  }

  async stop(): Promise<void> {
    this.bridge.kill('SIGKILL');
    // soffice runs in its own process group (detached): oosplash and soffice.bin go together.
    try {
      if (this.soffice.pid) process.kill(-this.soffice.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await rm(this.profile, { recursive: true, force: true }).catch(() => undefined);
  }
}

const coldConvert = promisify(libreOfficeConvert.convertWithOptions) as (
  document: Buffer,
  format: string,
  filter: string | undefined,
  options: Record<string, unknown>,
) => Promise<Buffer>;

export class OfficeEngine {
  private office: WarmOffice | undefined;
  private starting: Promise<WarmOffice> | undefined;
  /** One document at a time per soffice: conversions wait their turn here. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: OfficeEngineOptions) {}

  /** Converts one document; failures are ConversionFailures with a sentence for the user. */
  convert(input: Uint8Array, request: OfficeRequest): Promise<Buffer> {
    const run = this.queue.then(async () => {
      await inspectOfficeFile(input, request.from, this.options.bounds ?? DEFAULT_OFFICE_BOUNDS);
      return this.options.mode === 'warm' ? this.convertWarm(input, request) : this.convertCold(input, request);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async ensureOffice(): Promise<WarmOffice> {
    if (this.office && this.office.conversions >= this.options.restartAfter) {
      const old = this.office;
      this.office = undefined;
      await old.stop();
    }
    if (this.office) return this.office;
    this.starting ??= WarmOffice.start(this.options).finally(() => (this.starting = undefined));
    this.office = await this.starting;
    return this.office;
  }

  private async convertWarm(input: Uint8Array, request: OfficeRequest): Promise<Buffer> {
    const { filter, options } = exportFilter(request);
    const dir = await mkdtemp(join(tmpdir(), 'tinkerdesk-office-'));
    try {
      const src = join(dir, `input.${request.from}`);
      const dst = join(dir, `output.${request.to}`);
      await writeFile(src, input);
      const office = await this.ensureOffice();
      const imported = IMPORT[request.from];
      const answer = await office.convert(
        {
          src,
          dst,
          filter,
          filterOptions: options ?? '',
          importFilter: imported?.filter ?? '',
          importOptions: imported?.options ?? '',
        },
        this.options.timeoutMs,
      );
      if (answer === 'timeout' || answer.error === 'bridge') {
        // LibreOffice is stuck or gone: kill it; the next document starts a fresh one.
        this.office = undefined;
        await office.stop();
        if (answer === 'timeout')
          throw new ConversionFailure(
            'timeout',
            `the conversion took longer than ${Math.round(this.options.timeoutMs / 1000)} s and was stopped`,
          );
        throw new ConversionFailure('crashed', 'LibreOffice stopped while converting this document');
      }
      if (answer.error === 'password')
        throw new ConversionFailure('password', 'the document is protected by a password; remove the password and try again');
      if (answer.error === 'unreadable')
        throw new ConversionFailure('unreadable', `the file could not be read as a ${request.from} ${request.kind}`);
      if (answer.error)
        throw new ConversionFailure('unreadable', `LibreOffice could not write ${request.to}${answer.detail ? ` (${answer.detail})` : ''}`);
      return await readFile(dst);
    } finally {
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  private async convertCold(input: Uint8Array, request: OfficeRequest): Promise<Buffer> {
    const { filter, options } = exportFilter(request);
    const format = options ? `${request.to}:${filter}:${options}` : `${request.to}:${filter}`;
    try {
      return await coldConvert(Buffer.from(input), format, undefined, {
        fileName: `input.${request.from}`,
        execOptions: { timeout: this.options.timeoutMs, killSignal: 'SIGKILL' },
        asyncOptions: { times: 1 },
      });
    } catch (error) {
      const killed = (error as { killed?: boolean }).killed;
      if (killed)
        throw new ConversionFailure(
          'timeout',
          `the conversion took longer than ${Math.round(this.options.timeoutMs / 1000)} s and was stopped`,
        );
      throw new ConversionFailure('unreadable', `the file could not be converted from ${request.from} to ${request.to}`);
    }
  }

  async close(): Promise<void> {
    await this.queue;
    const office = this.office;
    this.office = undefined;
    await office?.stop();
  }
}
