import { MessagePattern } from '@nestjs/microservices';
import type { RpcRequest, RpcResponse, RpcSubject } from '@tinkerdesk/contracts';

/** A handler of subject S: takes S's request (or nothing) and answers S's response. */
export type RpcHandler<S extends RpcSubject> = (input: RpcRequest<S>) => RpcResponse<S> | Promise<RpcResponse<S>>;

/**
 * `@MessagePattern` typed from the RPC map of libs/contracts: the decorated method must accept the
 * subject's request and answer its response, or the service does not compile. Use it for every
 * request/reply handler instead of `@MessagePattern(subject)`.
 */
export function Handles<S extends RpcSubject>(subject: S) {
  const pattern = MessagePattern(subject);
  return <M extends RpcHandler<S>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>): void => {
    pattern(target, key, descriptor);
  };
}
