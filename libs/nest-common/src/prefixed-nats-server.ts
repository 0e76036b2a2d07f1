import { ServerNats } from '@nestjs/microservices';
import type { NatsOptions } from '@nestjs/microservices';

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

  override normalizePattern(pattern: Parameters<ServerNats['normalizePattern']>[0]): string {
    const route = super.normalizePattern(pattern);
    if (!this.prefix || route.startsWith(`${this.prefix}.`)) return route;
    return `${this.prefix}.${route}`;
  }
}
