// Types of scripts/processes.mjs for the TypeScript tests.
export interface ProcessSpec {
  name: string;
  entry: string;
}
export const SERVICES: string[];
export const PROCESSES: ProcessSpec[];
export const STABLE_AFTER_MS: number;
export function restartDelayMs(restartsInARow: number, options?: { baseMs?: number; maxMs?: number }): number;
export function run(command: string, args: string[], options?: Record<string, unknown>): Promise<void>;
