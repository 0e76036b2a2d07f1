import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import libreOfficeConvert from 'libreoffice-convert';
import type { FormatKind } from '@tinkerdesk/contracts';
import { removeExternalReferences } from './external-references.js';
import { ConversionFailure } from './failure.js';
import { DEFAULT_OFFICE_BOUNDS, inspectOfficeFile, type OfficeBounds } from './office-inspection.js';
import { BWRAP, sandboxArgs } from './sandbox.js';

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
 *
 * Either way soffice runs in the sandbox of sandbox.ts (bubblewrap): no network at all, and of the
 * worker's files only the system's programs, the job folder and its own profile. Warm, the UNO bridge
 * runs in the same sandbox and starts soffice there, so the pipe between them (a socket LibreOffice
 * makes in /tmp) stays inside its private /tmp; the worker talks to the bridge on its stdin/stdout.
 * Before soffice sees a document, its references to the outside are removed (external-references.ts).
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
  /**
   * `sandbox` (the default, and what the worker always uses): soffice in bubblewrap. `none` runs it
   * as a plain child process: only for the tests that prove each wall holds on its own.
   */
  isolation?: 'sandbox' | 'none';
  /** The bubblewrap program (Debian's /usr/bin/bwrap). */
  bwrapPath?: string;
  /** false: documents reach soffice with their outside references (tests of the sandbox alone). */
  removeExternalReferences?: boolean;
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
  // CSV: comma, double quote, UTF-8, from line 1; formulas (=WEBSERVICE(...)) kept as text, not evaluated
  // (token 13).
  csv: { filter: 'Text - txt - csv (StarCalc)', options: '44,34,76,1,,0,false,true,false,false,false,-1,false' },
};

export function exportFilter(request: OfficeRequest): ExportFilter {
  const found = EXPORT[request.kind][request.to];
  if (!found) throw new ConversionFailure('unsupported', `LibreOffice cannot make ${request.to} of a ${request.kind}`);
  return found;
}

const BRIDGE = fileURLToPath(new URL('../../bin/uno-bridge.py', import.meta.url));
/** soffice inside the sandbox, for libreoffice-convert (cold). */
const SANDBOXED_SOFFICE = fileURLToPath(new URL('../../bin/soffice-in-sandbox', import.meta.url));

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

/**
 * One soffice with its UNO bridge, in one sandbox: the bridge is the sandbox's command and starts
 * soffice itself. Their folder holds `profile` (LibreOffice's) and `job` (the one document being
 * converted, and its output): the only files they can write, or read beyond the system's.
 */
class WarmOffice {
  private readonly waiting = new Map<number, (answer: BridgeAnswer) => void>();
  private nextId = 1;
  conversions = 0;
  /** Where the document in hand and its output go (emptied after each). */
  readonly jobDir: string;

  private constructor(
    private readonly bridge: ChildProcess,
    private readonly folder: string,
  ) {
    this.jobDir = join(folder, 'job');
  }

  static async start(options: OfficeEngineOptions): Promise<WarmOffice> {
    const folder = await mkdtemp(join(tmpdir(), 'tinkerdesk-soffice-'));
    const profile = join(folder, 'profile');
    await mkdir(profile);
    await mkdir(join(folder, 'job'));
    const pipe = `tinkerdesk-${process.pid}-${randomBytes(4).toString('hex')}`;
    const command = [
      options.pythonPath ?? '/usr/bin/python3',
      BRIDGE,
      pipe,
      options.sofficePath ?? '/usr/bin/soffice',
      `-env:UserInstallation=${pathToFileURL(profile).href}`,
      '--headless',
      '--invisible',
      '--nologo',
      '--norestore',
      '--nodefault',
      '--nolockcheck',
      '--nofirststartwizard',
      `--accept=pipe,name=${pipe};urp;StarOffice.ComponentContext`,
    ];
    // Its own process group (detached): the sandbox and everything in it go together.
    const bridge =
      options.isolation === 'none'
        ? spawn(command[0]!, command.slice(1), { stdio: ['pipe', 'pipe', 'ignore'], detached: true })
        : spawn(options.bwrapPath ?? BWRAP, [...sandboxArgs({ writable: [folder], readable: [dirname(BRIDGE)] }), '--', ...command], {
            stdio: ['pipe', 'pipe', 'ignore'],
            detached: true,
            env: {},
          });
    const office = new WarmOffice(bridge, folder);
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

  /** Empties the job folder for the next document. */
  async clearJob(): Promise<void> {
    const names = await readdir(this.jobDir).catch(() => [] as string[]);
    await Promise.all(names.map((name) => rm(join(this.jobDir, name), { recursive: true, force: true }).catch(() => undefined)));
  }

  async stop(): Promise<void> {
    // The bridge (or bwrap) leads its own process group: soffice (oosplash and soffice.bin) goes with it.
    try {
      if (this.bridge.pid) process.kill(-this.bridge.pid, 'SIGKILL');
    } catch {
      this.bridge.kill('SIGKILL'); // already gone, or not a group of its own
    }
    await rm(this.folder, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * libreoffice-convert's callback API as a promise. Not `promisify`: the function also returns a promise of
 * its own, which Node 24 reports as a likely mistake (DEP0174).
 */
function coldConvert(document: Buffer, format: string, filter: string | undefined, options: Record<string, unknown>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    libreOfficeConvert.convertWithOptions(document, format, filter, options, (error: Error | null, output: Buffer) =>
      error ? reject(error) : resolve(output),
    );
  });
}

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
      const document = this.options.removeExternalReferences === false ? input : this.withoutOutside(input, request.from);
      return this.options.mode === 'warm' ? this.convertWarm(document, request) : this.convertCold(document, request);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private withoutOutside(input: Uint8Array, from: string): Uint8Array {
    try {
      return removeExternalReferences(input, from);
    } catch {
      throw new ConversionFailure('unreadable', `the file could not be read as a ${from} file`);
    }
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
    const office = await this.ensureOffice();
    try {
      const src = join(office.jobDir, `input.${request.from}`);
      const dst = join(office.jobDir, `output.${request.to}`);
      await writeFile(src, input);
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
      await office.clearJob();
    }
  }

  private async convertCold(input: Uint8Array, request: OfficeRequest): Promise<Buffer> {
    const { filter, options } = exportFilter(request);
    const format = options ? `${request.to}:${filter}:${options}` : `${request.to}:${filter}`;
    // libreoffice-convert makes its folders (the document's and the profile) in `work`, the one folder
    // the sandbox may write; the sandbox's options wait beside it for bin/soffice-in-sandbox.
    const folder = await mkdtemp(join(tmpdir(), 'tinkerdesk-office-'));
    const work = join(folder, 'work');
    const sandbox = this.options.isolation !== 'none';
    try {
      await mkdir(work);
      const argsFile = join(folder, 'sandbox.args');
      if (sandbox) await writeFile(argsFile, `${sandboxArgs({ writable: [work] }).join('\0')}\0`);
      const imported = IMPORT[request.from];
      return await coldConvert(Buffer.from(input), format, undefined, {
        fileName: `input.${request.from}`,
        // The same import filter as warm (HTML as a Writer document, CSV without evaluating formulas).
        ...(imported ? { sofficeAdditionalArgs: [`--infilter=${imported.filter}${imported.options ? `:${imported.options}` : ''}`] } : {}),
        tmpOptions: { tmpdir: work },
        ...(sandbox ? { sofficeBinaryPaths: [SANDBOXED_SOFFICE] } : {}),
        execOptions: {
          timeout: this.options.timeoutMs,
          killSignal: 'SIGKILL',
          ...(sandbox
            ? {
                env: {
                  TINKERDESK_SANDBOX_ARGS: argsFile,
                  TINKERDESK_BWRAP: this.options.bwrapPath ?? BWRAP,
                  TINKERDESK_SOFFICE: this.options.sofficePath ?? '/usr/bin/soffice',
                },
              }
            : {}),
        },
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
    } finally {
      await rm(folder, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.queue;
    const office = this.office;
    this.office = undefined;
    await office?.stop();
  }
}
