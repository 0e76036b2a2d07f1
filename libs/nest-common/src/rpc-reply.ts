import type { ConsumerSerializer } from '@nestjs/microservices';

/**
 * The reply of a request/reply handler, framed so the gateway can pass the answer's bytes through to
 * HTTP without parsing them (docs/architecture.md, "Replies the gateway passes through").
 *
 * Nest's NATS server answers a handler's value with the packet `{ response, isDisposed: true, id }`,
 * which its serializer writes as `JSON.stringify(packet)`: the answer sits in the middle of the frame,
 * so a reader has to parse the whole reply to find its end. The services write the same packet with the
 * answer last, `{"id":<id>,"isDisposed":true,"response":<answer>}`, still one JSON object any Nest
 * client reads as before; a reader that knows the id it sent finds the answer's bytes between the
 * head (`replyHead(id)`) and the final `}`. Errors and every other packet keep Nest's own form.
 */
export function replyHead(id: string): string {
  return `{"id":${JSON.stringify(id)},"isDisposed":true,"response":`;
}

/** Nest's reply packet (see Server.send in @nestjs/microservices). */
interface ReplyPacket {
  id?: unknown;
  response?: unknown;
  err?: unknown;
  isDisposed?: boolean;
  data?: unknown;
  headers?: unknown;
}

/** Writes a handler's answer in the framing of `replyHead`; hands every other packet to Nest's serializer. */
export class ReplySerializer implements ConsumerSerializer {
  constructor(private readonly nest: ConsumerSerializer) {}

  serialize(packet: ReplyPacket | null | undefined): unknown {
    if (
      packet &&
      typeof packet.id === 'string' &&
      packet.isDisposed === true &&
      packet.err === undefined &&
      packet.data === undefined &&
      packet.headers === undefined
    ) {
      // undefined (and a function or symbol) have no JSON: Nest's form leaves the key out.
      const answer = packet.response === undefined ? undefined : (JSON.stringify(packet.response) as string | undefined);
      if (answer !== undefined) return { data: `${replyHead(packet.id)}${answer}}`, headers: undefined };
    }
    return this.nest.serialize(packet as Parameters<ConsumerSerializer['serialize']>[0]);
  }
}

const BRACE_CLOSE = 0x7d;
/** The first byte of a JSON text written by JSON.stringify: `{`, `[`, `"`, a digit, `-`, `t`, `f`, `n`. */
const JSON_START = new Set([0x7b, 0x5b, 0x22, 0x2d, 0x74, 0x66, 0x6e, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39]);

/**
 * The answer's bytes of a reply framed by `ReplySerializer` for the request `id` (a view into `data`,
 * not a copy), or undefined when the reply is framed otherwise (an error, an answer with no value, a
 * replica not updated yet): the caller then parses it whole.
 */
export function answerBytes(data: Uint8Array, id: string): Buffer | undefined {
  const head = replyHead(id);
  if (data.length < head.length + 2 || data[data.length - 1] !== BRACE_CLOSE) return undefined;
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (!JSON_START.has(view[head.length] ?? 0) || view.toString('latin1', 0, head.length) !== head) return undefined;
  return view.subarray(head.length, view.length - 1);
}
