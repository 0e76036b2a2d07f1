import { ServerNats } from '@nestjs/microservices';
import type { NatsOptions } from '@nestjs/microservices';

const JSON_WORDS = new Set(['true', 'false', 'null']);

/**
 * Nest's NATS server, with every subject under a deployment prefix (NATS_PREFIX) so environments
 * and test runs that share one NATS never see each other's messages.
 */
export class PrefixedNatsServer extends ServerNats {
  constructor(
    private readonly prefix: string,
    options: NonNullable<NatsOptions['options']>,
  ) {
    super(options);
  }

  /**
   * The route of a subscribed subject. Nest first tries `JSON.parse` on it (for object patterns), which
   * throws, and so builds an Error with its stack, for every message on a plain subject like ours (1% of
   * a service's CPU under load). A subject that starts with a letter is no JSON (but these three words).
   */
  override getRouteFromPattern(pattern: string): string {
    if (!/^[A-Za-z_]/.test(pattern) || JSON_WORDS.has(pattern)) return super.getRouteFromPattern(pattern);
    return this.normalizePattern(pattern);
  }

  override normalizePattern(pattern: Parameters<ServerNats['normalizePattern']>[0]): string {
    const route = super.normalizePattern(pattern);
    if (!this.prefix || route.startsWith(`${this.prefix}.`)) return route;
    return `${this.prefix}.${route}`;
  }
}
