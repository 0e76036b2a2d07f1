import { describe, expect, it, jest } from '@jest/globals';
import { EventEmitter } from 'node:events';
import { Injectable, Module, type OnModuleDestroy } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Logger } from './logger.js';
import { closeOnSignals, UNFINISHED_STOP_EXIT_CODE, type SignalTarget } from './service-bootstrap.js';

/** `process` as closeOnSignals sees it: signals are emitted by the test, exits are recorded. */
class FakeProcess extends EventEmitter implements SignalTarget {
  readonly exits: number[] = [];
  readonly exited: Promise<number>;
  private settle: (code: number) => void = () => undefined;
  constructor() {
    super();
    this.exited = new Promise((resolve) => (this.settle = resolve));
  }
  exit(code: number): void {
    this.exits.push(code);
    this.settle(code);
  }
  getActiveResourcesInfo(): string[] {
    return ['TCPWrap', 'TCPWrap', 'Timeout'];
  }
}

function fakeLogger() {
  const lines: Array<{ level: string; obj: unknown; msg: string }> = [];
  const at = (level: string) => (obj: unknown, msg?: string) => void lines.push({ level, obj, msg: msg ?? String(obj) });
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger };
}

/** A provider whose destroy hook never resolves: Nest's close() hangs on it. */
@Injectable()
class StuckOnDestroy implements OnModuleDestroy {
  destroying = false;
  onModuleDestroy(): Promise<void> {
    this.destroying = true;
    return new Promise<void>(() => undefined);
  }
}

@Module({ providers: [StuckOnDestroy] })
class StuckModule {}

async function stuckApp() {
  const app = await NestFactory.createApplicationContext(StuckModule, { logger: false });
  return { close: () => app.close(), hook: app.get(StuckOnDestroy) };
}

describe('closeOnSignals', () => {
  it('exits 0 once close has finished', async () => {
    const proc = new FakeProcess();
    const { logger } = fakeLogger();
    closeOnSignals(() => Promise.resolve(), logger, { graceMs: 10_000, process: proc });
    proc.emit('SIGTERM');
    expect(await proc.exited).toBe(0);
  });

  it('a close that hangs (a destroy hook that never resolves): the exit timer logs what is open and exits non-zero', async () => {
    const proc = new FakeProcess();
    const { lines, logger } = fakeLogger();
    const app = await stuckApp();
    const begun = Date.now();
    closeOnSignals(app.close, logger, { graceMs: 150, marginMs: 50, process: proc });
    proc.emit('SIGTERM');
    expect(await proc.exited).toBe(UNFINISHED_STOP_EXIT_CODE);
    expect(Date.now() - begun).toBeGreaterThanOrEqual(190);
    expect(app.hook.destroying).toBe(true);
    const line = lines.find((l) => l.level === 'error');
    expect(line?.msg).toBe('the stop did not finish in time: exiting');
    expect(line?.obj).toMatchObject({ limitMs: 200, open: { TCPWrap: 2, Timeout: 1 } });
    expect(proc.exits).toEqual([UNFINISHED_STOP_EXIT_CODE]);
  });

  it('the same signal a second time exits at once; the other signal (a supervisor passing the stop on) does not', async () => {
    const proc = new FakeProcess();
    const { lines, logger } = fakeLogger();
    const app = await stuckApp();
    closeOnSignals(app.close, logger, { graceMs: 60_000, process: proc });
    proc.emit('SIGINT');
    proc.emit('SIGTERM');
    expect(proc.exits).toEqual([]);
    expect(lines.map((l) => l.msg)).toEqual(['stopping', 'already stopping']);
    proc.emit('SIGINT');
    expect(proc.exits).toEqual([UNFINISHED_STOP_EXIT_CODE]);
    expect(lines.at(-1)).toMatchObject({ level: 'warn', msg: 'second signal while stopping: exiting now' });
  });

  it('exits non-zero, not 0, when the event loop empties while close is still pending', async () => {
    const proc = new FakeProcess();
    const { logger } = fakeLogger();
    closeOnSignals(() => new Promise<void>(() => undefined), logger, { graceMs: 60_000, process: proc });
    proc.emit('SIGTERM');
    proc.emit('beforeExit');
    expect(proc.exits).toEqual([UNFINISHED_STOP_EXIT_CODE]);
  });

  it('exits 1 when close throws, and the exit timer does not fire afterwards', async () => {
    const proc = new FakeProcess();
    const { logger } = fakeLogger();
    const close = jest.fn(() => Promise.reject(new Error('pool would not close')));
    closeOnSignals(close, logger, { graceMs: 20, marginMs: 0, process: proc });
    proc.emit('SIGTERM');
    expect(await proc.exited).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    expect(proc.exits).toEqual([1]);
  });
});
