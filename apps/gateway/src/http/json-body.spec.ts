import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { ServiceJson } from '@tinkerdesk/nest-common';
import { GatewayExpressAdapter, JsonBody } from './json-body.js';

/** A service's answer as it arrives: its JSON text (as passThrough gives it), not the value. */
function sent<T>(value: T): ServiceJson<T> {
  return ServiceJson.ofBytes<T>(Buffer.from(JSON.stringify(value)));
}

const ANSWERS: Array<[string, object]> = [
  ['a list page', { orders: [{ id: 'o1', amount: 1250, receipt: null, items: [{ name: 'Poster' }] }], total: 1000 }],
  ['an empty object', {}],
  ['one field', { publicKey: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U' }],
  ['unicode', { name: 'Café 🎨 印刷 \u2028 \ud800 "quoted" \\ \n', ключ: 'значение' }],
  ['a field named like ours', { success: false, note: 'the answer’s own field wins, as in a spread' }],
];

describe('JsonBody', () => {
  it.each(ANSWERS)('successAnd of %s is the bytes of { success: true, ...answer }', (_what, answer) => {
    const body = JsonBody.successAnd(sent(answer));
    expect(JSON.parse(body.bytes().toString('utf8'))).toEqual({ success: true, ...answer });
    if (!('success' in answer)) expect(body.bytes().toString('utf8')).toBe(JSON.stringify({ success: true, ...answer }));
    expect(JSON.stringify(body)).toBe(JSON.stringify({ success: true, ...answer }));
  });

  it.each([...ANSWERS, ['a list', [1, 'two', null]], ['null', null], ['a string', 'täxt'], ['zero', 0]] as Array<[string, unknown]>)(
    'successWith of %s is the bytes of { success: true, [key]: answer }',
    (_what, answer) => {
      const body = JsonBody.successWith('products', sent(answer));
      expect(body.bytes().toString('utf8')).toBe(JSON.stringify({ success: true, products: answer }));
      expect(body.toJSON()).toEqual({ success: true, products: answer });
    },
  );

  it('leaves out the key of an answer with no value, as JSON.stringify does', () => {
    expect(JsonBody.successWith('order', ServiceJson.ofValue(undefined)).bytes().toString()).toBe('{"success":true}');
  });

  it('spreads an answer that is not an object the way a spread does (built the ordinary way)', () => {
    expect(
      JsonBody.successAnd(sent(['a', 'b']) as never)
        .bytes()
        .toString(),
    ).toBe(JSON.stringify({ success: true, ...['a', 'b'] }));
    expect(
      JsonBody.successAnd(sent(null) as never)
        .bytes()
        .toString(),
    ).toBe('{"success":true}');
  });
});

describe('GatewayExpressAdapter', () => {
  const answer = { products: [{ id: 'p1', name: 'Riso 🎨 Ünïcode', price: 1250 }] };
  const app = express();
  const adapter = new GatewayExpressAdapter(app);
  app.get('/passed', (_req, res) => void adapter.reply(res, JsonBody.successAnd(sent(answer)), 200));
  app.head('/passed', (_req, res) => void adapter.reply(res, JsonBody.successAnd(sent(answer)), 200));
  app.get('/json', (_req, res) => void res.status(200).json({ success: true, ...answer }));
  app.get('/created', (_req, res) => void adapter.reply(res, JsonBody.successWith('product', sent(answer.products[0])), 201));
  app.get('/plain', (_req, res) => void adapter.reply(res, { success: true, ...answer }, 200));

  it('sends the same bytes, Content-Type, Content-Length and ETag as res.json of the same value', async () => {
    const [passed, json] = await Promise.all([request(app).get('/passed'), request(app).get('/json')]);
    expect(passed.status).toBe(200);
    expect(passed.text).toBe(json.text);
    for (const header of ['content-type', 'content-length', 'etag']) expect(passed.headers[header]).toBe(json.headers[header]);
    expect(passed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(passed.body).toEqual({ success: true, ...answer });
  });

  it('answers 304 to a request whose ETag is current, and no body to HEAD', async () => {
    const first = await request(app).get('/passed');
    const again = await request(app).get('/passed').set('if-none-match', String(first.headers.etag));
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const head = await request(app).head('/passed');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
    expect(head.text).toBeUndefined();
  });

  it('keeps the status of the route, and sends every other answer as Nest does', async () => {
    const created = await request(app).get('/created');
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ success: true, product: answer.products[0] });
    const plain = await request(app).get('/plain');
    expect(plain.text).toBe(JSON.stringify({ success: true, ...answer }));
  });
});
