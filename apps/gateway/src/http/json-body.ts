import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import type { ServiceJson } from '@tinkerdesk/nest-common';

const SUCCESS = Buffer.from('{"success":true');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('}');
/** `,"<key>":` per key of `successWith` (the routes' few). */
const keyParts = new Map<string, Buffer>();

function keyPart(key: string): Buffer {
  let part = keyParts.get(key);
  if (!part) keyParts.set(key, (part = Buffer.from(`,${JSON.stringify(key)}:`)));
  return part;
}

/**
 * A success body of /v1 made of a service's answer as the JSON text it sent (`RpcClient.passThrough`),
 * without parsing it and encoding it again: `{"success":true,"products":<answer>}` or, for an answer
 * that is an object, `{"success":true,<the answer's fields>}`. Typed with the body it stands for, so a
 * route still declares (and the compiler checks) the answer it promises (ResponseMap of libs/contracts).
 * `GatewayExpressAdapter` sends it like Express's `res.json` would the same value: the same bytes, the
 * same Content-Type, ETag and 304 handling. Anything that serializes it (`toJSON`) gets the value.
 */
export class JsonBody<T> {
  private constructor(
    private readonly parts: readonly Buffer[],
    /** The value, for a body whose answer was not an object after all (built the ordinary way). */
    private readonly fallback?: () => T,
  ) {}

  /** `{ success: true, [key]: answer }`. */
  static successWith<K extends string, V>(key: K, answer: ServiceJson<V>): JsonBody<{ success: true } & { [P in K]: V }> {
    // An answer with no value leaves its key out, as JSON.stringify does.
    if (answer.bytes.length === 0) return new JsonBody([SUCCESS, CLOSE]);
    return new JsonBody([SUCCESS, keyPart(key), answer.bytes, CLOSE]);
  }

  /** `{ success: true, ...answer }` for an answer that is an object. */
  static successAnd<V extends object>(answer: ServiceJson<V>): JsonBody<{ success: true } & V> {
    if (!answer.isObject) return new JsonBody([], () => ({ success: true as const, ...answer.value() }));
    // `{}`: nothing to add. Otherwise the answer's fields after ours (a field it repeats wins, as in a spread).
    if (answer.bytes.length === 2) return new JsonBody([SUCCESS, CLOSE]);
    return new JsonBody([SUCCESS, COMMA, answer.bytes.subarray(1)]);
  }

  /** The UTF-8 JSON text of the body. */
  bytes(): Buffer {
    if (this.fallback) return Buffer.from(JSON.stringify(this.fallback()));
    return Buffer.concat(this.parts);
  }

  toJSON(): T {
    return this.fallback ? this.fallback() : (JSON.parse(this.bytes().toString('utf8')) as T);
  }
}

/**
 * Nest's Express adapter, sending a JsonBody's bytes as they are; every other answer as Nest does.
 * Express's `res.send` of a Buffer computes the same weak ETag `res.json` would of the same bytes,
 * answers 304 to a fresh conditional request and nothing to HEAD.
 */
export class GatewayExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!(body instanceof JsonBody)) return super.reply(response, body, statusCode);
    if (statusCode !== undefined && statusCode !== null) response.status(statusCode);
    if (!response.get('Content-Type')) response.set('Content-Type', 'application/json; charset=utf-8');
    return response.send(body.bytes());
  }
}
