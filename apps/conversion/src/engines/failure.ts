/**
 * A conversion that cannot succeed, with the sentence the user sees (the job's error). `reason`
 * tells the worker what to do: every reason here is final (retrying gives the same answer), except
 * `crashed`, which another attempt may get past.
 */
export type FailureReason = 'unsupported' | 'unreadable' | 'password' | 'too-large' | 'timeout' | 'crashed';

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
