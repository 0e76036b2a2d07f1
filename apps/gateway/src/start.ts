import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import {
  announceReady,
  checkSavedFilesConfig,
  createLogger,
  LOCAL_STORAGE_PATH,
  loadConfigOrExit,
  PinoNestLogger,
  RpcClient,
  type Logger,
} from '@tinkerdesk/nest-common';
import { AppModule } from './app.module.js';
import { schema, type GatewayConfig } from './config.js';
import { HttpErrorFilter } from './http/error.filter.js';
import { Draining } from './health/draining.js';
import { HttpDrain } from './http/http-drain.js';
import { GatewayExpressAdapter } from './http/json-body.js';
import { LiveStreams } from './live/live-streams.js';
import { answerParserErrorsInEnvelope } from './http/parser-errors.js';
import { RouteTable } from './http/route-table.js';
import { dispatchRoutes } from './http/route-dispatch.js';
import { fixedHeaders, securityHeaders, weakETag } from './http/static-headers.js';
import { reenterRequestContext, requestContextMiddleware } from './http/request-context.js';
import { httpValidationPipe } from './http/validation.js';
import { mountOpenApi } from './openapi.js';
import { mountWebApp } from './web/spa.js';
import type { ShopReader } from './web/shop-page.js';
import type { AccountReader } from './web/account-page.js';
import { verifiedSession } from './auth/bearer.guard.js';
import { SessionCache } from './auth/session-cache.js';
import { OAUTH_ACCESS_TOKEN } from './oauth/oauth-tokens.js';
import { accountOf, ProfileCache } from './users/profile-cache.js';
import { createOAuthServer } from './oauth/oauth-provider.js';
import { AppError, OAUTH_PATH, SUBJECTS } from '@tinkerdesk/contracts';
import { STRIPE_WEBHOOK_PATH, WEBHOOK_BODY_LIMIT } from './commerce/payments.controller.js';

export interface GatewayHandle {
  app: NestExpressApplication;
  config: GatewayConfig;
  logger: Logger;
  url: string;
  close(): Promise<void>;
}

/**
 * A body parser that only looks at requests that can carry a body: GET and HEAD (most of the traffic)
 * skip it, as the parsers themselves would after checking the headers; a body sent with them is not
 * read, as no route of /v1 reads one.
 */
function onlyWithBody(parser: express.RequestHandler): express.RequestHandler {
  return (req, res, next) =>
    req.method === 'GET' || req.method === 'HEAD' || req.path.startsWith(STORAGE_PREFIX) || req.path === WEBHOOK_SUBPATH
      ? next()
      : parser(req, res, next);
}

/** The site's own file storage takes raw bodies (a signed PUT streams into the store), never parsed ones. */
const STORAGE_PREFIX = `${LOCAL_STORAGE_PATH.slice('/v1'.length)}/`;

/** Stripe signs the exact bytes of its webhooks: that body stays raw. */
const WEBHOOK_SUBPATH = STRIPE_WEBHOOK_PATH.slice('/v1'.length);

function corsOrigin(value: string): string | string[] | boolean {
  if (value === '*') return '*';
  return value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
}

/** What createGatewayApp builds: the Nest application, initialised but not listening yet. */
export interface GatewayApp {
  app: NestExpressApplication;
  logger: Logger;
}

/**
 * Builds the gateway's Nest application for a configuration: connects to NATS, mounts the middleware,
 * the routes and the web app, and initialises it without listening. `startGateway` (main.ts) listens
 * and announces it; the medium tests (apps/gateway/test/medium.ts) run it in-process under supertest.
 * Closing the app closes its NATS connection.
 */
export async function createGatewayApp(
  config: GatewayConfig,
  logger: Logger = createLogger('gateway', config.LOG_LEVEL),
): Promise<GatewayApp> {
  const rpc = await RpcClient.connect({
    natsUrl: config.NATS_URL,
    prefix: config.NATS_PREFIX,
    timeoutMs: config.RPC_TIMEOUT_MS,
    name: `gateway-${process.pid}`,
  });

  const oauth = await createOAuthServer(
    rpc,
    {
      publicUrl: config.PUBLIC_URL,
      signingKey: config.OAUTH_SIGNING_KEY,
      cookieKeys: config.OAUTH_COOKIE_KEYS,
      codeTtlSeconds: config.OAUTH_CODE_TTL_SECONDS,
      accessTokenTtlSeconds: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: config.OAUTH_REFRESH_TOKEN_TTL_SECONDS,
      behindProxy: config.TRUST_PROXY.length > 0,
    },
    logger,
  );
  // The adapter sends the bodies made of services' answers as they are (JsonBody, http/json-body.ts).
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, rpc, oauth), new GatewayExpressAdapter(), {
    logger: new PinoNestLogger(logger),
    bodyParser: false,
  });
  // X-Forwarded-For is believed only from the proxies named in TRUST_PROXY (none by default), so a
  // client cannot choose the address its sign-in and mail limits are counted under.
  app.set('trust proxy', config.TRUST_PROXY.length > 0 ? config.TRUST_PROXY : false);
  app.disable('x-powered-by');
  // Express's weak ETag, the same string, hashed with the one-shot crypto.hash.
  app.set('etag', weakETag);
  app.use(requestContextMiddleware(logger));
  // helmet's headers are the same for every request: made once (fixedHeaders), not per request.
  app.use(fixedHeaders(securityHeaders()));
  // OAuth's protocol endpoints (oidc-provider) answer before CORS and the body parsers: they set
  // their own CORS headers and read their own bodies; the gateway's routes under it go on to Nest.
  app.use(OAUTH_PATH, oauth.handle);
  app.enableCors({
    origin: corsOrigin(config.CORS_ORIGINS),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['authorization', 'content-type', 'x-request-id', 'idempotency-key'],
    exposedHeaders: ['x-request-id', 'x-list-count', 'content-disposition'],
    maxAge: 600,
  });
  app.use(STRIPE_WEBHOOK_PATH, express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }));
  app.use('/v1', onlyWithBody(express.json({ limit: config.BODY_LIMIT, strict: false })));
  app.use('/v1', onlyWithBody(express.urlencoded({ limit: config.BODY_LIMIT, extended: false })));
  app.use(reenterRequestContext);
  app.useGlobalPipes(httpValidationPipe());
  const expressApp = app.getHttpAdapter().getInstance() as express.Express;
  app.useGlobalFilters(new HttpErrorFilter(logger, new RouteTable(expressApp)));
  answerParserErrorsInEnvelope(app.getHttpServer() as Server);
  // Before Nest's routes: the web app answers every non-/v1 path (SPA fallback); /v1 goes on.
  // A shop's page is painted from the gateway's own read of the shop, as GET /v1/users/{id}/services/{sid}
  // and /v1/shops/{slug} read it (commerce/services.controller.ts, shops.controller.ts).
  const readShop: ShopReader = async (shop) =>
    rpc.send(
      SUBJECTS.commerce.storefrontGet,
      shop.kind === 'storefront'
        ? { userId: shop.userId, serviceId: shop.serviceId }
        : await rpc.send(SUBJECTS.commerce.shopResolve, { slug: shop.slug }),
    );
  // A signed-in visitor's /account is painted from the gateway's own read of their account, as GET
  // /v1/users/me?include=services answers it to their session token (users.controller.ts), checked as the
  // BearerGuard checks a browser's session; an app's OAuth access token names no account here.
  const sessions = app.get(SessionCache);
  const profiles = app.get(ProfileCache);
  const readAccount: AccountReader = async (token) => {
    if (OAUTH_ACCESS_TOKEN.test(token)) throw new AppError('INVALID_TOKEN', 'an app’s access token is no browser session');
    const session = await verifiedSession(rpc, sessions, token);
    return accountOf(rpc, profiles, session.userId, true);
  };
  mountWebApp(expressApp, config.WEB_DIST, logger, { readShop, readAccount });
  mountOpenApi(app, config.PUBLIC_URL);
  await app.init();
  // Each request tries only the routes that can match its path's first segments (route-dispatch.ts).
  dispatchRoutes(expressApp);
  return { app, logger };
}

/**
 * Builds the gateway from the environment, listens on PORT and HOST, and tells a supervising parent it
 * serves. `close` (SIGTERM) drains first (HttpDrain: in-flight requests finish, live streams end), then closes the app.
 */
export async function startGateway(env: Record<string, string | undefined> = process.env): Promise<GatewayHandle> {
  const config = loadConfigOrExit(schema, env, checkSavedFilesConfig);
  const { app, logger } = await createGatewayApp(config);
  await app.listen(config.PORT, config.HOST);
  const server = app.getHttpServer() as Server;
  const drain = new HttpDrain(server);
  const address = server.address() as AddressInfo;
  const url = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${address.port}`;
  logger.info({ url }, 'gateway listening');
  announceReady({ service: 'gateway', url });
  return {
    app,
    config,
    logger,
    url,
    // Requests in flight finish with NATS and Redis still open: the app (and its connections) closes after them.
    close: async () => {
      // Not ready from now on (GET /v1/health/ready answers 503), while what is in flight finishes.
      app.get(Draining, { strict: false }).start();
      logger.info({ inFlight: drain.inFlight }, 'gateway draining');
      const { cut } = await drain.drain(config.SHUTDOWN_GRACE_MS, () => app.get(LiveStreams, { strict: false }).closeAll());
      if (cut > 0)
        logger.warn({ cut, graceMs: config.SHUTDOWN_GRACE_MS }, 'requests still running at the end of the grace period were cut');
      await app.close();
    },
  };
}
