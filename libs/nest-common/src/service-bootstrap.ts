import 'reflect-metadata';
import type { INestMicroservice, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfigOrExit, type ConfigCheck, type ConfigOf, type Schema } from './config.js';
import { createLogger, PinoNestLogger, type Logger } from './logger.js';
import { announceReady } from './ready.js';
import { NATS_RECONNECT } from './nats-reconnect.js';
import { PrefixedNatsServer } from './prefixed-nats-server.js';
import { startProbeServer, type ProbeServer } from './probe-server.js';
import { RpcErrorFilter, rpcValidationPipe } from './rpc-server.js';

export interface ReadinessProbe {
  (): Promise<boolean>;
}

export interface ServiceHandle {
  app: INestMicroservice;
  logger: Logger;
  /** SHUTDOWN_GRACE_MS: how long `close` waits for what the service holds (closeOnSignals' exit timer adds a margin). */
  graceMs: number;
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
>(options: BootstrapServiceOptions<S>): Promise<ServiceHandle> {
  const config = loadConfigOrExit(options.schema, options.env ?? process.env, options.check) as ConfigOf<S> & {
    NATS_URL: string;
    NATS_PREFIX: string;
    LOG_LEVEL: string;
    SHUTDOWN_GRACE_MS: number;
    HEALTH_PORT?: number;
  };
  const logger = createLogger(options.name, config.LOG_LEVEL);
  const strategy = new PrefixedNatsServer(
    config.NATS_PREFIX,
    {
      servers: config.NATS_URL,
      queue: options.name,
      name: `${options.name}-${process.pid}`,
      ...NATS_RECONNECT,
    },
    config.SHUTDOWN_GRACE_MS,
  );
  const app = await NestFactory.createMicroservice(options.module(config, logger), {
    strategy,
    logger: new PinoNestLogger(logger),
    bufferLogs: false,
  });
  app.useGlobalPipes(rpcValidationPipe());
  app.useGlobalFilters(new RpcErrorFilter(logger));
  await app.listen();
  await strategy.subscribed();
  logger.info({ queue: options.name, prefix: config.NATS_PREFIX || undefined }, `${options.name} service listening on NATS`);

  let probes: ProbeServer | undefined;
  if (config.HEALTH_PORT) {
    const ready = options.readiness?.(app) ?? (async () => true);
    probes = startProbeServer(config.HEALTH_PORT, ready);
    await probes.listening;
  }

  announceReady({ service: options.name });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      // Not ready from now on (GET /ready answers 503), while it answers what it holds; the probes go last.
      probes?.stopping();
      await app.close();
      await probes?.close();
      logger.info(`${options.name} service stopped`);
    })();
    return closing;
  };
  return { app, logger, graceMs: config.SHUTDOWN_GRACE_MS, close };
}

/** What closeOnSignals uses of `process` (a fake in unit tests). */
export interface SignalTarget {
  on(event: 'SIGINT' | 'SIGTERM' | 'beforeExit', listener: () => void): unknown;
  exit(code: number): void;
  getActiveResourcesInfo(): string[];
}

/** What a stop may take beyond the grace period: closing the connections and pools after the drain. */
export const EXIT_MARGIN_MS = 1500;

/** Exit code of a stop that did not finish: the exit timer, or a second signal. */
export const UNFINISHED_STOP_EXIT_CODE = 70;

export interface CloseOnSignalsOptions {
  /** How long `close` may wait for the work in hand (SHUTDOWN_GRACE_MS; a conversion worker: its job timeout). */
  graceMs: number;
  /** Added to graceMs for the exit timer (EXIT_MARGIN_MS). */
  marginMs?: number;
  process?: SignalTarget;
}

/** `{ TCPWrap: 3, Timeout: 1 }`: what keeps the event loop alive, by kind. */
function openResources(target: SignalTarget): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of target.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/**
 * Stops the process cleanly on SIGINT/SIGTERM (Ctrl-C, Kubernetes): runs `close`, then exits 0 (1 when it
 * threw). Two catch-alls, so a stop always ends: an exit timer (graceMs + marginMs, unref'd so it never
 * keeps a finished process alive) logs what was still open and exits 70 when `close` hangs (a destroy hook
 * that never resolves), and the same signal again (a second SIGTERM, a second Ctrl-C) exits 70 at once; the
 * other signal is only logged (a supervisor passing on the stop the terminal already sent). Should the event loop empty while
 * `close` is still pending (nothing left that could finish it), the process exits 70 too, not 0.
 */
export function closeOnSignals(close: () => Promise<void>, logger: Logger, options: CloseOnSignalsOptions): void {
  const target = options.process ?? process;
  const waitMs = options.graceMs + (options.marginMs ?? EXIT_MARGIN_MS);
  let begun: number | undefined;
  let first: string | undefined;
  let finished = false;
  const stop = (signal: string): void => {
    if (begun !== undefined) {
      if (signal !== first) {
        // Ctrl-C under `npm start`: the terminal sends SIGINT to every process, then the supervisor SIGTERM.
        logger.info({ signal }, 'already stopping');
        return;
      }
      logger.warn({ signal, afterMs: Date.now() - begun, open: openResources(target) }, 'second signal while stopping: exiting now');
      target.exit(UNFINISHED_STOP_EXIT_CODE);
      return;
    }
    begun = Date.now();
    first = signal;
    logger.info({ signal }, 'stopping');
    const timer = setTimeout(() => {
      logger.error(
        { waitedMs: Date.now() - (begun ?? 0), limitMs: waitMs, open: openResources(target) },
        'the stop did not finish in time: exiting',
      );
      target.exit(UNFINISHED_STOP_EXIT_CODE);
    }, waitMs);
    timer.unref();
    target.on('beforeExit', () => {
      if (finished) return;
      logger.error({ waitedMs: Date.now() - (begun ?? 0) }, 'the stop can no longer finish (nothing left running): exiting');
      target.exit(UNFINISHED_STOP_EXIT_CODE);
    });
    close()
      .then(() => {
        finished = true;
        clearTimeout(timer);
        target.exit(0);
      })
      .catch((error: unknown) => {
        finished = true;
        clearTimeout(timer);
        logger.error({ err: error }, 'error while stopping');
        target.exit(1);
      });
  };
  // The first signal (either) runs the stop, the next one ends it.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) target.on(signal, () => stop(signal));
}
