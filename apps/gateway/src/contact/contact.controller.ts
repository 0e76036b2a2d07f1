import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ContactDto, SUBJECTS } from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { ApiAnswer, ApiErrors } from '../http/api-docs.js';
import { ApiCreateIdempotencyKey, IdempotencyKey, withKey } from '../http/idempotency.js';
import { RateLimit } from '../http/rate-limit.js';
import { MAIL_LIMITS } from '../http/rate-limits.js';

@ApiTags('contact')
@Controller('v1/contact')
export class ContactController {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @RateLimit(MAIL_LIMITS.contact)
  @ApiOperation({ summary: 'Send a question to support' })
  @ApiCreateIdempotencyKey()
  @ApiAnswer(200, 'ContactReceived')
  @ApiErrors('CONFLICT')
  create(@Body() body: ContactDto, @IdempotencyKey() key: string | undefined): Promise<{ success: true; id: string }> {
    return this.rpc.send(SUBJECTS.identity.contactCreate, { ...body, ...withKey(key) });
  }
}
