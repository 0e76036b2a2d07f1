import { engineMissingReason, type ConversionEngine } from '@tinkerdesk/contracts';

/**
 * A conversion that cannot succeed, with the sentence the user sees (the job's error). `reason`
 * tells the worker what to do: every reason here is final (retrying gives the same answer), except
 * `crashed`, which another attempt may get past (`unavailable`: this worker cannot run the engine
 * safely at all, e.g. its sandbox; another worker would fail the same way).
 */
export type FailureReason = 'unsupported' | 'unreadable' | 'password' | 'too-large' | 'timeout' | 'crashed' | 'unavailable';

export class ConversionFailure extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'ConversionFailure';
  }

  get final(): boolean {
    return this.reason !== 'crashed';
  }
}

/** The worker that took a job lacks its engine (`engine`); another live worker may have it. */
export class EngineMissing extends ConversionFailure {
  constructor(readonly engine: ConversionEngine) {
    super('unavailable', engineMissingReason(engine));
    this.name = 'EngineMissing';
  }
}
