// Types of scripts/processes.mjs for the TypeScript tests. PROCESSES is spelled out as a tuple so that
// libs/testing derives its ProcessName from it: keep it in step with the list in processes.mjs.
export interface ProcessSpec {
  readonly name: string;
  readonly entry: string;
}
export const SERVICES: readonly ['identity', 'commerce', 'terminals', 'conversion'];
export const PROCESSES: readonly [
  { readonly name: 'identity'; readonly entry: string },
  { readonly name: 'commerce'; readonly entry: string },
  { readonly name: 'terminals'; readonly entry: string },
  { readonly name: 'conversion'; readonly entry: string },
  { readonly name: 'conversion-worker'; readonly entry: string },
  { readonly name: 'gateway'; readonly entry: string },
];
export const STABLE_AFTER_MS: number;
export function restartDelayMs(restartsInARow: number, options?: { baseMs?: number; maxMs?: number }): number;
export function run(command: string, args: string[], options?: Record<string, unknown>): Promise<void>;
