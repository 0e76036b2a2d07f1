import { Body, Controller, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppError, FetchUrlDto, type FetchedContentView } from '@tinkerdesk/contracts';
import { parseAllowedHosts, safeFetch, type FetchPolicy } from '@tinkerdesk/nest-common';
import { ApiAnswer, ApiErrors } from '../http/api-docs.js';
import { BearerGuard, CurrentSession, type AuthenticatedSession } from '../auth/bearer.guard.js';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';
import { RateLimit } from '../http/rate-limit.js';
import { FETCH_LIMIT } from '../http/rate-limits.js';

/**
 * POST /v1/users/{guid}/fetch: the server fetches a URL for the browser tools, which cannot read
 * most sites themselves (CORS). The gateway does it itself, behind the SSRF guard (safeFetch): the
 * answer goes straight back to the caller, and a service in between would only copy the bytes again
 * (and NATS carries at most 1 MB a message).
 */
@ApiTags('tools')
@Controller('v1/users')
export class FetchController {
  private readonly policy: FetchPolicy;
  private running = 0;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {
    this.policy = {
      allowedHosts: parseAllowedHosts(config.FETCH_ALLOWED_HOSTS),
      maxBytes: config.FETCH_MAX_BYTES,
      timeoutMs: config.FETCH_TIMEOUT_MS,
      maxRedirects: 5,
    };
  }

  @Post(':guid/fetch')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @RateLimit(FETCH_LIMIT)
  @ApiBearerAuth()
  @ApiOperation({
    summary: "Fetch a URL's content on the server for the browser tools (own guid only)",
    description:
      'Only http and https URLs outside this network (an address check on every redirect, at most 5); the content (at most FETCH_MAX_BYTES) comes back in base64. Errors: URL_NOT_ALLOWED 403, UPSTREAM_ERROR 502 (the site answered an error), UNAVAILABLE 503 (no answer in time), PAYLOAD_TOO_LARGE 413.',
  })
  @ApiAnswer(200, 'FetchedContent')
  @ApiErrors('NOT_FOUND', 'URL_NOT_ALLOWED', 'PAYLOAD_TOO_LARGE', 'UPSTREAM_ERROR', 'RATE_LIMITED')
  async fetch(
    @Param('guid') guid: string,
    @CurrentSession() session: AuthenticatedSession,
    @Body() body: FetchUrlDto,
  ): Promise<FetchedContentView> {
    // Another account's guid answers exactly like an unknown one.
    if (guid !== session.userId) throw new AppError('NOT_FOUND', 'no such user');
    if (this.running >= this.config.FETCH_CONCURRENCY) {
      throw AppError.rateLimited('the server is fetching as much as it can right now; try again in a moment', 1);
    }
    this.running++;
    try {
      const got = await safeFetch(body.url, this.policy, { ...(body.headers ? { headers: body.headers } : {}) });
      return {
        success: true,
        url: got.url,
        contentType: got.contentType,
        filename: got.filename,
        size: got.size,
        content: got.body.toString('base64'),
      };
    } finally {
      this.running--;
    }
  }
}
