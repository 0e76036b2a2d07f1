import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { PeriodicTask, type PeriodicSchedule } from './periodic.js';

class Counting extends PeriodicTask {
  runs = 0;
  warnings: string[] = [];
  release: () => void = () => undefined;
  hold = false;
  fail = false;

  constructor(private readonly atStart: boolean) {
    super();
  }

  protected schedule(): PeriodicSchedule {
    return {
      everyMs: 1000,
      atStart: this.atStart,
      failure: 'counting failed',
      logger: { warn: (_obj, msg) => void this.warnings.push(msg) },
    };
  }

  protected run(): Promise<unknown> {
    this.runs += 1;
    if (this.fail) return Promise.reject(new Error('down'));
    return this.hold ? new Promise<void>((r) => (this.release = r)) : Promise.resolve();
  }
}

afterEach(() => {
  jest.useRealTimers();
});

describe('PeriodicTask', () => {
  it('runs every period from bootstrap (and at start when asked), until destroyed', async () => {
    jest.useFakeTimers();
    const task = new Counting(true);
    task.onApplicationBootstrap();
    expect(task.runs).toBe(1);
    await jest.advanceTimersByTimeAsync(2000);
    expect(task.runs).toBe(3);
    task.onModuleDestroy();
    await jest.advanceTimersByTimeAsync(5000);
    expect(task.runs).toBe(3);
  });

  it('skips a run that is due while the last one still goes', async () => {
    jest.useFakeTimers();
    const task = new Counting(false);
    task.hold = true;
    task.onApplicationBootstrap();
    expect(task.runs).toBe(0);
    await jest.advanceTimersByTimeAsync(3000);
    expect(task.runs).toBe(1);
    task.release();
    await jest.advanceTimersByTimeAsync(1000);
    expect(task.runs).toBe(2);
    task.onModuleDestroy();
  });

  it('logs a failed run and runs again at the next period', async () => {
    jest.useFakeTimers();
    const task = new Counting(false);
    task.fail = true;
    task.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(2000);
    expect(task.runs).toBe(2);
    expect(task.warnings).toEqual(['counting failed', 'counting failed']);
    task.onModuleDestroy();
  });
});
