import { describe, expect, it } from '@jest/globals';
import type { ConsumerSerializer } from '@nestjs/microservices';
import { answerBytes, replyHead, ReplySerializer } from './rpc-reply.js';

/** What Nest's own NatsRecordSerializer does with a reply packet (no record, no headers). */
const nest: ConsumerSerializer = {
  serialize: (packet: object) => ({ data: JSON.stringify({ ...packet, data: undefined }), headers: undefined }),
};
const serializer = new ReplySerializer(nest);
const ID = '2f0c8e4a-8d61-4b57-9c1e-7f3a2b1d0e95';

function frame(response: unknown, id = ID): Uint8Array {
  const { data } = serializer.serialize({ response, isDisposed: true, id }) as { data: string };
  return new TextEncoder().encode(data);
}

const VALUES: Array<[string, unknown]> = [
  ['an object', { products: [{ id: 'p1', name: 'Poster', price: 1250, active: true, image: null }], total: 1 }],
  ['a list', [1, 2.5, -3e-7, 'x']],
  ['a string', 'just text'],
  ['a number', 0],
  ['null', null],
  ['false', false],
  ['an empty object', {}],
  [
    'unicode: accents, emoji, CJK, line separators, a lone surrogate, controls',
    { name: 'Café 🎨 印刷 \u2028\u2029 \ud800 "q" \\ \n\t\u0000' },
  ],
];

describe('ReplySerializer', () => {
  it.each(VALUES)('writes %s last in a packet that parses to what Nest would send', (_what, response) => {
    const { data, headers } = serializer.serialize({ response, isDisposed: true, id: ID }) as { data: string; headers: unknown };
    expect(headers).toBeUndefined();
    expect(data.startsWith(replyHead(ID))).toBe(true);
    expect(JSON.parse(data)).toEqual({ id: ID, isDisposed: true, response });
    expect(JSON.parse(data)).toEqual(JSON.parse((nest.serialize({ response, isDisposed: true, id: ID }) as { data: string }).data));
  });

  it("hands errors, answers with no value and other packets to Nest's serializer unchanged", () => {
    for (const packet of [
      { err: { code: 'NOT_FOUND', detail: 'no such user' }, isDisposed: true, id: ID },
      { isDisposed: true, id: ID },
      { response: undefined, isDisposed: true, id: ID },
      { response: { a: 1 }, id: ID },
      { id: ID, status: 'error', err: 'There is no matching message handler defined in the remote service.' },
    ]) {
      expect(serializer.serialize(packet)).toEqual(nest.serialize(packet as never));
    }
  });
});

describe('answerBytes', () => {
  it.each(VALUES)('gives %s as the exact JSON text the service wrote', (_what, response) => {
    const bytes = answerBytes(frame(response), ID);
    expect(bytes?.toString('utf8')).toBe(JSON.stringify(response));
  });

  it('is a view of the reply, not a copy, also of a big answer', () => {
    const big = { orders: Array.from({ length: 5000 }, (_, i) => ({ id: `order-${i}`, note: 'ß'.repeat(i % 50) })) };
    const data = frame(big);
    const bytes = answerBytes(data, ID);
    expect(bytes?.buffer).toBe(data.buffer);
    expect(bytes?.length).toBe(Buffer.byteLength(JSON.stringify(big)));
    expect(JSON.parse(bytes?.toString('utf8') ?? '')).toEqual(big);
  });

  it('finds nothing in a reply framed otherwise: an error, another request, Nest’s own order, a cut or foreign reply', () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    const error = { err: { code: 'NOT_FOUND', detail: 'x' }, isDisposed: true, id: ID };
    expect(answerBytes(encode(JSON.stringify(error)), ID)).toBeUndefined();
    expect(answerBytes(frame({ a: 1 }, 'another-id'), ID)).toBeUndefined();
    expect(answerBytes(encode(JSON.stringify({ response: { a: 1 }, isDisposed: true, id: ID })), ID)).toBeUndefined();
    const whole = new TextDecoder().decode(frame({ a: 1 }));
    expect(answerBytes(encode(whole.slice(0, -3)), ID)).toBeUndefined();
    expect(answerBytes(encode(`${replyHead(ID)}}`), ID)).toBeUndefined();
    expect(answerBytes(encode(`${replyHead(ID)}<html>}`), ID)).toBeUndefined();
    expect(answerBytes(encode('not json at all'), ID)).toBeUndefined();
    expect(answerBytes(new Uint8Array(0), ID)).toBeUndefined();
  });
});
