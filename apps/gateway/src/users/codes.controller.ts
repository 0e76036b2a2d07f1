import { Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppError, SUBJECTS, type AuthResult } from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { ApiAnswer, ApiErrors } from '../http/api-docs.js';

@ApiTags('users')
@Controller('v1/codes')
export class CodesController {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  /** What the web app calls for a URL hash 'impersonate/{code}' or 'tokenswap/{code}'. */
  @Post(':code/exchange')
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchange a single-use impersonate or tokenswap code for a session (profile, token, verified)' })
  @ApiAnswer(200, 'Auth')
  @ApiErrors('LINK_INVALID', 'IDENTIFIER_NOT_FOUND')
  async exchange(@Param('code') code: string): Promise<{ success: true } & AuthResult> {
    if (code.length > 200) throw new AppError('VALIDATION_FAILED', 'the code is too long');
    return { success: true, ...(await this.rpc.send(SUBJECTS.identity.codeExchange, { code })) };
  }
}
