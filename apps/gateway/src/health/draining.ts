import { Injectable } from '@nestjs/common';

/**
 * Whether this gateway has begun to stop (SIGTERM): from then on `GET /v1/health/ready` answers 503, so a
 * load balancer that still probes it takes it out of rotation, while the requests in flight finish
 * (HttpDrain). One per app; `startGateway`'s close sets it before the drain begins.
 */
@Injectable()
export class Draining {
  private begun = false;

  start(): void {
    this.begun = true;
  }

  get active(): boolean {
    return this.begun;
  }
}
