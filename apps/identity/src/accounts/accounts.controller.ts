import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Handles } from '@tinkerdesk/nest-common';
import {
  CreateCodeMessage,
  CreateUserMessage,
  ExchangeCodeMessage,
  type CodeView,
  type LogoutResult,
  ResetCheckDto,
  ResetPasswordDto,
  ResetSetupDto,
  VerifyEmailDto,
  PublicProfileMessage,
  SendMailMessage,
  FindByEmailMessage,
  SignInMessage,
  SUBJECTS,
  TokenMessage,
  UpdateProfileMessage,
  UserIdMessage,
  type AuthResult,
  type SignInResult,
  type Profile,
  type PublicProfile,
  RequestVerificationMessage,
  type SessionInfo,
} from '@tinkerdesk/contracts';
import { AccountsService } from './accounts.service.js';

/** NATS handlers: translate only, the rules are in the service. */
@Controller()
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Handles(SUBJECTS.identity.userCreate)
  create(@Payload() input: CreateUserMessage): Promise<AuthResult> {
    const keyed = input.idempotencyKey === undefined ? undefined : { key: input.idempotencyKey, clientAddress: input.clientAddress };
    return this.accounts.signUp(input.email, input.password, input.tz, input.returnTo, keyed);
  }

  @Handles(SUBJECTS.identity.userSignin)
  signIn(@Payload() input: SignInMessage): Promise<SignInResult> {
    return this.accounts.signIn(input.identifier, input.password, input.clientAddress, input.deviceTokens);
  }

  @Handles(SUBJECTS.identity.sessionVerify)
  verify(@Payload() input: TokenMessage): Promise<SessionInfo> {
    return this.accounts.verifySession(input.token);
  }

  @Handles(SUBJECTS.identity.sessionEnd)
  logout(@Payload() input: TokenMessage): Promise<LogoutResult> {
    return this.accounts.logout(input.token);
  }

  @Handles(SUBJECTS.identity.userMe)
  me(@Payload() input: UserIdMessage): Promise<Profile> {
    return this.accounts.me(input.userId);
  }

  @Handles(SUBJECTS.identity.userUpdate)
  update(@Payload() input: UpdateProfileMessage): Promise<Profile> {
    return this.accounts.update(input.userId, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.tz !== undefined ? { tz: input.tz } : {}),
    });
  }

  @Handles(SUBJECTS.identity.userPublic)
  publicProfile(@Payload() input: PublicProfileMessage): Promise<PublicProfile> {
    return this.accounts.publicProfile(input.id);
  }

  @Handles(SUBJECTS.identity.verificationRequest)
  requestVerification(@Payload() input: RequestVerificationMessage): Promise<{ success: true; sent: boolean }> {
    return this.accounts.requestVerification(input.userId, input.returnTo);
  }

  @Handles(SUBJECTS.identity.verificationConfirm)
  verifyEmail(@Payload() input: VerifyEmailDto): Promise<{ success: true }> {
    return this.accounts.verifyEmail(input.token);
  }

  @Handles(SUBJECTS.identity.resetRequest)
  requestReset(@Payload() input: ResetSetupDto): Promise<{ success: true }> {
    return this.accounts.requestPasswordReset(input.email);
  }

  @Handles(SUBJECTS.identity.resetConfirm)
  reset(@Payload() input: ResetPasswordDto): Promise<{ success: true }> {
    return this.accounts.resetPassword(input.token, input.password);
  }

  @Handles(SUBJECTS.identity.resetCheck)
  checkReset(@Payload() input: ResetCheckDto): Promise<{ success: true }> {
    return this.accounts.checkResetLink(input.token);
  }

  @Handles(SUBJECTS.identity.codeCreate)
  createCode(@Payload() input: CreateCodeMessage): Promise<CodeView> {
    return this.accounts.createCode(input.userId, input.kind, input.user);
  }

  @Handles(SUBJECTS.identity.codeExchange)
  exchangeCode(@Payload() input: ExchangeCodeMessage): Promise<AuthResult> {
    return this.accounts.exchangeCode(input.code);
  }

  @Handles(SUBJECTS.identity.mailSend)
  sendMail(@Payload() input: SendMailMessage): Promise<{ success: true }> {
    return this.accounts.sendMessage(input);
  }

  @Handles(SUBJECTS.identity.userFindByEmail)
  findByEmail(@Payload() input: FindByEmailMessage): Promise<{ userId: string | null }> {
    return this.accounts.findVerifiedByEmail(input.email);
  }
}
