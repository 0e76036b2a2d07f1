import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { INestMicroservice, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfigOrExit, type ConfigCheck, type ConfigOf, type Schema } from './config.js';
import { createLogger, PinoNestLogger, type Logger } from './logger.js';
import { announceReady } from './ready.js';
import { NATS_RECONNECT } from './nats-reconnect.js';
import { PrefixedNatsServer } from './prefixed-nats-server.js';
import { RequestIdInterceptor, RpcErrorFilter, rpcValidationPipe } from './rpc-server.js';

export interface ReadinessProbe {
  (): Promise<boolean>;
}

export interface ServiceHandle {
  app: INestMicroservice;
  logger: Logger;
  close(): Promise<void>;
}

export interface BootstrapServiceOptions<S extends Schema> {
  name: string;
  schema: S;
  /** Builds the root module from the validated config. */
  module: (config: ConfigOf<S>, logger: Logger) => Type<unknown> | import('@nestjs/common').DynamicModule;
  /** Resolves the readiness check from the running app (database, Redis...). */
  readiness?: (app: INestMicroservice) => ReadinessProbe;
  env?: Record<string, string | undefined>;
  /** Rules across variables, checked at boot like the schema (one line naming the variable, exit 78). */
  check?: ConfigCheck<S>;
}

/**
 * Starts a NestJS microservice on NATS in the queue group named after the service, so replicas
 * share the load; validates config first (one line naming the variable on failure); logs as JSON;
 * serves /live and /ready on HEALTH_PORT when set (Kubernetes probes); stops cleanly on signals: it
 * leaves its queue groups, answers what it holds (PrefixedNatsServer.close), then closes its pools.
 */
export async function bootstrapService<
  S extends Schema & { NATS_URL: unknown; NATS_PREFIX: unknown; LOG_LEVEL: unknown; SHUTDOWN_GRACE_MS: unknown },
>(
  options: BootstrapServiceOptions<S>,
): Promise<ServiceHandle> {
  const config = loadConfigOrExit(options.schema, options.env ?? process.env, options.check) as ConfigOf<S> & {
    NATS_URL: string;
    NATS_PREFIX: string;
    LOG_LEVEL: string;
    SHUTDOWN_GRACE_MS: number;
    HEALTH_PORT?: number;
  };
  const logger = createLogger(options.name, config.LOG_LEVEL);
  const strategy = new PrefixedNatsServer(config.NATS_PREFIX, {
    servers: config.NATS_URL,
    queue: options.name,
    name: `${options.name}-${process.pid}`,
    ...NATS_RECONNECT,
  }, config.SHUTDOWN_GRACE_MS);
  const app = await NestFactory.createMicroservice(options.module(config, logger), {
    strategy,
    logger: new PinoNestLogger(logger),
    bufferLogs: false,
  });
  app.useGlobalInterceptors(new RequestIdInterceptor());
  app.useGlobalPipes(rpcValidationPipe());
  app.useGlobalFilters(new RpcErrorFilter(logger));
  await app.listen();
  await strategy.subscribed();
  logger.info({ queue: options.name, prefix: config.NATS_PREFIX || undefined }, `${options.name} service listening on NATS`);

  let probeServer: Server | undefined;
  if (config.HEALTH_PORT) {
    const ready = options.readiness?.(app) ?? (async () => true);
    probeServer = createServer((req, res) => {
      if (req.url === '/live') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"up"}');
        return;
      }
      if (req.url === '/ready') {
        ready()
          .catch(() => false)
          .then((ok) =>
            res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: ok ? 'up' : 'down' })),
          );
        return;
      }
      res.writeHead(404).end();
    }).listen(config.HEALTH_PORT);
  }

  announceReady({ service: options.name });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      probeServer?.close();
      await app.close();
      logger.info(`${options.name} service stopped`);
    })();
    return closing;
  };
  return { app, logger, close };
}

/** Stops the process cleanly on SIGINT/SIGTERM (Ctrl-C, Kubernetes). */
export function closeOnSignals(close: () => Promise<void>, logger: Logger): void {
  const stop = (signal: string): void => {
    logger.info({ signal }, 'stopping');
    close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'error while stopping');
        process.exit(1);
      });
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}
