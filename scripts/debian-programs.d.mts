// Types of debian-programs.mjs for the TypeScript tests.
export interface Program {
  name: string;
  commands?: string[];
  files?: string[];
  packages: string[];
  steps: string[];
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
export function isPresent(program: Program): boolean;
export function ensureDebianPrograms(steps: string[]): void;
