import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { currentRequestId, requestContext } from '@tinkerdesk/nest-common';
import { receivedAt, reenterRequestContext, requestContextMiddleware } from './request-context.js';

const silent = { info: () => undefined, error: () => undefined, debug: () => undefined } as never;

/**
 * The gateway's order: the request context, a body parser, then the re-entry. A parser that calls on from
 * a stream's event outside the request's context (as they may) is played by one that calls on outside it.
 */
function app(reenter: boolean) {
  const server = express();
  server.use(requestContextMiddleware(silent));
  server.use(express.json());
  server.use((_req, _res, next) => requestContext.exit(() => next()));
  if (reenter) server.use(reenterRequestContext);
  server.post('/echo', async (_req, res) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    res.json({ requestId: currentRequestId() ?? null });
  });
  return server;
}

describe('reenterRequestContext', () => {
  it('gives the handler the request id again after a body parser lost it', async () => {
    const res = await request(app(true)).post('/echo').set('x-request-id', 'req-context-test-1').send({ a: 1 });
    expect(res.body).toEqual({ requestId: 'req-context-test-1' });
    const fresh = await request(app(true)).post('/echo').send({ a: 1 });
    expect(fresh.body.requestId).toBe(fresh.headers['x-request-id']);
  });

  it('is needed: without it a handler called on outside the context has no request id', async () => {
    const res = await request(app(false)).post('/echo').set('x-request-id', 'req-context-test-2').send({ a: 1 });
    expect(res.body).toEqual({ requestId: null });
  });

  it('keeps when the request reached the gateway (epoch ms), for the phase logs', async () => {
    const server = express();
    server.use(requestContextMiddleware(silent));
    server.get('/at', (_req, res) => res.json({ at: receivedAt(res) ?? null }));
    const before = Date.now();
    const res = await request(server).get('/at');
    expect(res.body.at).toBeGreaterThanOrEqual(before - 1);
    expect(res.body.at).toBeLessThanOrEqual(Date.now() + 1);
  });
});
