import { Module } from '@nestjs/common';
import { IdentityDirectory } from './identity-directory.js';

/** What commerce asks identity over NATS (names, addresses, mail): IdentityDirectory. */
@Module({
  providers: [IdentityDirectory],
  exports: [IdentityDirectory],
})
export class IdentityModule {}
