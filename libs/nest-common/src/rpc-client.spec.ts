import { describe, expect, it } from '@jest/globals';
import { NoRespondersError, RequestError, TimeoutError } from '@nats-io/transport-node';
import { AppError } from '@tinkerdesk/contracts';
import { RpcClient } from './rpc-client.js';

describe('RpcClient.translate', () => {
  it('turns no responders into UNAVAILABLE naming the service', () => {
    const error = RpcClient.translate(
      new RequestError('no responders', { cause: new NoRespondersError('commerce.plan.list') }),
      'commerce',
      1500,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'UNAVAILABLE', detail: 'the commerce service is not available' });
  });

  it('turns a timeout into UNAVAILABLE with the deadline', () => {
    expect(RpcClient.translate(new TimeoutError(), 'identity', 1500)).toMatchObject({
      code: 'UNAVAILABLE',
      detail: 'the identity service did not answer within 1500 ms',
    });
  });

  it('keeps other errors as they are (they become a logged 500)', () => {
    const error = new TypeError('bad');
    expect(RpcClient.translate(error, 'identity', 1500)).toBe(error);
  });
});
