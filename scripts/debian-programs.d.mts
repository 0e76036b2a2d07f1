// Types of debian-programs.mjs for the TypeScript tests.
export interface Program {
  name: string;
  commands?: string[];
  files?: string[];
  packages: string[];
  steps: string[];
  /** The conversion engines that need it at run time (empty: only the tests do). */
  engines: string[];
}
export type Decision =
  | { action: 'none' }
  | { action: 'install'; packages: string[]; command: string; missing: string[] }
  | { action: 'stop'; packages: string[]; line: string };
export const PROGRAMS: Program[];
export function installCommand(packages: string[], options: { root: boolean }): string;
export function decide(options: {
  programs?: Program[];
  steps: string[];
  present: (program: Program) => boolean;
  root: boolean;
  apt: boolean;
}): Decision;
export type StartDecision =
  | { action: 'none' }
  | { action: 'install'; packages: string[]; command: string; missing: string[] }
  | { action: 'warn'; packages: string[]; line: string };
export const ENGINE_USES: Record<string, string>;
export function decideForStart(options: {
  programs?: Program[];
  present: (program: Program) => boolean;
  root: boolean;
  apt: boolean;
}): StartDecision;
export function ensureEnginePrograms(options?: {
  present?: (program: Program) => boolean;
  root?: boolean;
  apt?: boolean;
  install?: (packages: string[]) => string | undefined;
  log?: (line: string) => void;
  warn?: (line: string) => void;
}): StartDecision;
export function isPresent(program: Program): boolean;
export function ensureDebianPrograms(steps: string[]): void;
