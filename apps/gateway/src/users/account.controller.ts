import { Body, Controller, Get, HttpCode, Inject, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  AppError,
  RETURN_TO_PATTERN,
  ResetCheckDto,
  ResetPasswordDto,
  ResetSetupDto,
  SUBJECTS,
  VerifyEmailDto,
} from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { ApiAnswer, ApiErrors } from '../http/api-docs.js';
import type { Response } from 'express';
import { RateLimit } from '../http/rate-limit.js';
import { MAIL_LIMITS } from '../http/rate-limits.js';

@ApiTags('users')
@Controller('v1/account')
export class AccountController {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  @Post('resetpassword/setup')
  @HttpCode(200)
  @RateLimit(MAIL_LIMITS.passwordReset)
  @ApiOperation({ summary: 'Email a single-use password reset link; answers the same whether or not the account exists' })
  @ApiAnswer(200, 'Ok')
  setup(@Body() body: ResetSetupDto): Promise<{ success: true }> {
    return this.rpc.send(SUBJECTS.identity.resetRequest, body, 5000);
  }

  @Post('resetpassword')
  @HttpCode(200)
  @ApiOperation({ summary: 'Set a new password with the emailed token; ends every session of the account' })
  @ApiAnswer(200, 'Ok')
  @ApiErrors('LINK_INVALID')
  reset(@Body() body: ResetPasswordDto): Promise<{ success: true }> {
    return this.rpc.send(SUBJECTS.identity.resetConfirm, body, 5000);
  }

  @Post('resetpassword/check')
  @HttpCode(200)
  @ApiOperation({ summary: 'Whether a reset link can still be used (410 LINK_INVALID when used, expired or unknown); uses nothing' })
  @ApiAnswer(200, 'Ok')
  @ApiErrors('LINK_INVALID')
  checkReset(@Body() body: ResetCheckDto): Promise<{ success: true }> {
    return this.rpc.send(SUBJECTS.identity.resetCheck, body);
  }

  @Post('verify')
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm the email address with the emailed token' })
  @ApiAnswer(200, 'Ok')
  @ApiErrors('LINK_INVALID')
  verify(@Body() body: VerifyEmailDto): Promise<{ success: true }> {
    return this.rpc.send(SUBJECTS.identity.verificationConfirm, body);
  }

  @Get('verify')
  @ApiQuery({ name: 'token', required: true })
  @ApiQuery({
    name: 'next',
    required: false,
    description: 'A path on this site to go to once verified (the order the account was made from)',
  })
  @ApiOperation({ summary: 'The link in the verification email: confirms, then sends the browser back where it came from, or to /account' })
  @ApiResponse({
    status: 303,
    description:
      'To `next` when it is a path on this site (anything else, such as //host or https://host, is ignored), else /account?verified=1; /account?verified=invalid for a used, expired or unknown link',
  })
  async verifyLink(@Query('token') token: string | undefined, @Query('next') next: unknown, @Res() res: Response): Promise<void> {
    if (!token || token.length > 200) throw new AppError('VALIDATION_FAILED', 'token is required');
    try {
      await this.rpc.send(SUBJECTS.identity.verificationConfirm, { token });
      res.redirect(303, sameSitePath(next) ?? '/account?verified=1');
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'LINK_INVALID') throw error;
      res.redirect(303, '/account?verified=invalid');
    }
  }
}

/** A path on this site to send the browser to (never another host: no //, no backslash, no scheme), or undefined. */
export function sameSitePath(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= 500 && RETURN_TO_PATTERN.test(value) ? value : undefined;
}
