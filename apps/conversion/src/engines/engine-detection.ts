import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { CONVERSION_ENGINES, ENGINE_LABELS, type ConversionEngine } from '@tinkerdesk/contracts';

/** What a worker found on its machine at start (probed by `probeMachine`, judged by `enginesOf`). */
export interface MachineProbe {
  /** SOFFICE_PATH is an executable file. */
  soffice: boolean;
  /** The LibreOffice sandbox (bubblewrap) runs here; `sandboxReason` says why not. */
  sandbox: boolean;
  sandboxReason?: string;
  /** The LibreOffice mode asked for: warm needs the UNO bridge (Debian's python3-uno). */
  libreofficeMode: 'auto' | 'warm' | 'cold';
  unoBridge: boolean;
  /** CHROMIUM_PATH is an executable file. */
  chromium: boolean;
  /** poppler's pdftoppm is on the PATH. */
  pdftoppm: boolean;
}

export interface WorkerEngines {
  /** The engines this worker can convert with. */
  engines: ConversionEngine[];
  /** Why each of the others is missing (a sentence naming the program and the setting). */
  missing: Partial<Record<ConversionEngine, string>>;
}

/** The engines a worker has, from what it found (pure: unit-tested). libvips (sharp) comes with the worker. */
export function enginesOf(probe: MachineProbe, paths: { soffice: string; chromium: string; bwrap: string }): WorkerEngines {
  const missing: Partial<Record<ConversionEngine, string>> = {};
  if (!probe.soffice) missing.libreoffice = `LibreOffice's soffice is not at ${paths.soffice} (SOFFICE_PATH)`;
  else if (!probe.sandbox)
    missing.libreoffice = `its sandbox cannot run (${paths.bwrap}, SANDBOX_BWRAP): ${probe.sandboxReason ?? 'unknown reason'}`;
  else if (probe.libreofficeMode === 'warm' && !probe.unoBridge)
    missing.libreoffice = "LIBREOFFICE_MODE is warm but the UNO bridge (Debian's python3-uno) is not installed";
  if (!probe.chromium) missing.chromium = `Chromium is not at ${paths.chromium} (CHROMIUM_PATH)`;
  if (!probe.pdftoppm) missing['pdf-pages'] = "poppler's pdftoppm is not on the PATH (Debian package poppler-utils)";
  return { engines: CONVERSION_ENGINES.filter((e) => missing[e] === undefined), missing };
}

/** One line per missing engine, for the worker's start-up log. */
export function missingLines(found: WorkerEngines): string[] {
  return Object.entries(found.missing).map(([engine, why]) => `${ENGINE_LABELS[engine as ConversionEngine]} is off on this worker: ${why}`);
}

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function onPath(command: string, path: string): boolean {
  return path.split(delimiter).some((dir) => dir !== '' && isExecutable(join(dir, command)));
}
