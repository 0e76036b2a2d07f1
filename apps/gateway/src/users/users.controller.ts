import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  AppError,
  type AccountView,
  CreateCodeDto,
  CreateUserDto,
  type CodeView,
  type LogoutResult,
  ProfileQueryDto,
  PublicProfileMessage,
  RequestVerificationDto,
  SignInDto,
  SUBJECTS,
  UpdateProfileDto,
  type AuthResult,
  type Profile,
  type PublicProfile,
} from '@tinkerdesk/contracts';
import { RpcClient } from '@tinkerdesk/nest-common';
import { JsonBody } from '../http/json-body.js';
import { ApiAnswer, ApiErrors } from '../http/api-docs.js';
import { ApiCreateIdempotencyKey, IdempotencyKey, withKey } from '../http/idempotency.js';
import type { Request, Response } from 'express';
import { deviceTokens, setDeviceCookie } from './device-cookies.js';
import { BearerGuard, CurrentSession, type AuthenticatedSession } from '../auth/bearer.guard.js';
import { OAuthScope } from '../oauth/oauth-scope.js';
import { accountOf, ProfileCache } from './profile-cache.js';
import { clientAddress, RateLimit } from '../http/rate-limit.js';
import { MAIL_LIMITS } from '../http/rate-limits.js';

@ApiTags('users')
@Controller('v1/users')
export class UsersController {
  constructor(
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(ProfileCache) private readonly profiles: ProfileCache,
  ) {}

  @Post()
  @HttpCode(201)
  @RateLimit(MAIL_LIMITS.signUp)
  @ApiOperation({
    summary: 'Sign up: creates the account and answers like sign-in (profile, token, verified)',
    description:
      "With an Idempotency-Key, a retry of a sign-up that succeeded (same key, email, tz and returnTo within 24 hours) answers the same account with a new session instead of 409 EMAIL_IN_USE, once its password is the account's (checked and counted as a sign-in); another password under the key is 409 CONFLICT.",
  })
  @ApiCreateIdempotencyKey()
  @ApiAnswer(201, 'Auth')
  @ApiErrors('EMAIL_IN_USE', 'CONFLICT')
  async create(
    @Body() body: CreateUserDto,
    @IdempotencyKey() key: string | undefined,
    @Req() req: Request,
  ): Promise<{ success: true } & AuthResult> {
    const message = { ...body, ...withKey(key), ...(key === undefined ? {} : { clientAddress: clientAddress(req) }) };
    return { success: true, ...(await this.rpc.send(SUBJECTS.identity.userCreate, message, 5000)) };
  }

  @Get('me')
  @UseGuards(BearerGuard)
  @OAuthScope('profile')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'The profile of the signed-in user; include=services adds the provider services (from commerce)' })
  @ApiAnswer(200, 'Account')
  async me(@CurrentSession() session: AuthenticatedSession, @Query() query: ProfileQueryDto): Promise<{ success: true } & AccountView> {
    const includes = new Set(query.include?.split(',') ?? []);
    return { success: true, ...(await accountOf(this.rpc, this.profiles, session.userId, includes.has('services'))) };
  }

  @Post('me')
  @OAuthScope('profile')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Update name and time zone (IANA)' })
  @ApiAnswer(200, 'Profile')
  async update(@CurrentSession() session: AuthenticatedSession, @Body() body: UpdateProfileDto): Promise<{ success: true } & Profile> {
    const profile = await this.rpc.send(SUBJECTS.identity.userUpdate, { ...body, userId: session.userId });
    // Identity's event reaches every replica; this one forgets before it answers, whatever the event's timing.
    this.profiles.forget(session.userId);
    return { success: true, ...profile };
  }

  @Post('me/codes')
  @HttpCode(201)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Mint a single-use code (2 minutes): tokenswap for your own account; impersonate (administrators) for another',
  })
  @ApiAnswer(201, 'Code')
  @ApiErrors('FORBIDDEN', 'NOT_FOUND')
  async createCode(@CurrentSession() session: AuthenticatedSession, @Body() body: CreateCodeDto): Promise<{ success: true } & CodeView> {
    return { success: true, ...(await this.rpc.send(SUBJECTS.identity.codeCreate, { ...body, userId: session.userId })) };
  }

  @Post(':guid/signin')
  @HttpCode(200)
  @ApiParam({ name: 'guid', description: "The account's guid or its email address" })
  @ApiOperation({
    summary:
      'Sign in; answers profile, token and verified, and sets a device cookie (HttpOnly) for this account. After 10 failures ' +
      'for one account from one client address in 15 minutes (or far more for one account from everywhere), or failures on ' +
      '20 accounts from one address in an hour, 429 RATE_LIMITED with Retry-After; a browser that holds a device cookie of ' +
      'the account is counted on its own (10 failures in 15 minutes)',
  })
  @ApiAnswer(200, 'Auth')
  @ApiErrors('UNAUTHORIZED', 'RATE_LIMITED')
  async signIn(
    @Param('guid') identifier: string,
    @Body() body: SignInDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ success: true } & AuthResult> {
    if (identifier.length > 254) throw new AppError('VALIDATION_FAILED', 'the account identifier is too long');
    // Identity resolves the account (guid or email) and counts the try before checking the password:
    // against the browser's own budget when it holds a device cookie of the account.
    const message = { identifier, password: body.password, clientAddress: clientAddress(req), deviceTokens: deviceTokens(req) };
    const { device, ...signedIn } = await this.rpc.send(SUBJECTS.identity.userSignin, message, 5000);
    if (device) setDeviceCookie(req, res, device);
    return { success: true, ...signedIn };
  }

  @Post(':guid/logout')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: "End this session at once; only the session's own user may" })
  @ApiAnswer(200, 'Logout', "Ended; an impersonation answers the administrator's own session (profile, token, verified)")
  @ApiErrors('NOT_FOUND')
  async logout(@Param('guid') guid: string, @CurrentSession() session: AuthenticatedSession): Promise<LogoutResult> {
    // Another account's guid answers exactly like an unknown one.
    if (guid !== session.userId) throw new AppError('NOT_FOUND', 'no such user');
    return this.rpc.send(SUBJECTS.identity.sessionEnd, { token: session.token });
  }

  @Post(':guid/requestverification')
  @HttpCode(200)
  @UseGuards(BearerGuard)
  @RateLimit(MAIL_LIMITS.verification)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Email a verification link; sent is false when the account is verified already' })
  @ApiBody({ type: RequestVerificationDto, required: false })
  @ApiAnswer(200, 'VerificationSent')
  @ApiErrors('NOT_FOUND')
  requestVerification(
    @Param('guid') guid: string,
    @CurrentSession() session: AuthenticatedSession,
    @Body() body: RequestVerificationDto,
  ): Promise<{ success: true; sent: boolean }> {
    if (guid !== session.userId) throw new AppError('NOT_FOUND', 'no such user');
    const returnTo = body?.returnTo;
    return this.rpc.send(SUBJECTS.identity.verificationRequest, { userId: session.userId, ...(returnTo ? { returnTo } : {}) }, 5000);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Public profile (never the email)' })
  @ApiAnswer(200, 'PublicProfile')
  @ApiErrors('NOT_FOUND')
  async publicProfile(@Param() params: PublicProfileMessage): Promise<JsonBody<{ success: true } & PublicProfile>> {
    return JsonBody.successAnd(await this.rpc.passThrough(SUBJECTS.identity.userPublic, { id: params.id }));
  }
}
