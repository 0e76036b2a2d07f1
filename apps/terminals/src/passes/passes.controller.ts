import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  type Done,
  type EmptyMessage,
  ListPassesMessage,
  PassImageMessage,
  PassMessage,
  SavePassMessage,
  StorePassImageMessage,
  SUBJECTS,
  type PassAppleData,
  type PassGoogleView,
  type PassImageData,
  type PassImageRef,
  type PassList,
  type PassSaved,
  type PassView,
  type WalletConfigView,
} from '@tinkerdesk/contracts';
import { Handles } from '@tinkerdesk/nest-common';
import { PassesService } from './passes.service.js';

/** NATS handlers of wallet passes: translate only. */
@Controller()
export class PassesController {
  constructor(@Inject(PassesService) private readonly passes: PassesService) {}

  @Handles(SUBJECTS.terminals.passImageStore)
  storeImage(@Payload() input: StorePassImageMessage): Promise<PassImageRef> {
    return this.passes.storeImage(input);
  }

  @Handles(SUBJECTS.terminals.passImageGet)
  image(@Payload() input: PassImageMessage): Promise<PassImageData> {
    return this.passes.image(input.imageId);
  }

  @Handles(SUBJECTS.terminals.passSave)
  save(@Payload() input: SavePassMessage): Promise<PassSaved> {
    return this.passes.save(input);
  }

  @Handles(SUBJECTS.terminals.passGet)
  get(@Payload() input: PassMessage): Promise<PassView> {
    return this.passes.get(input.passId, input.userId);
  }

  @Handles(SUBJECTS.terminals.passList)
  list(@Payload() input: ListPassesMessage): Promise<PassList> {
    return this.passes.list(input);
  }

  @Handles(SUBJECTS.terminals.passDelete)
  async remove(@Payload() input: PassMessage): Promise<Done> {
    await this.passes.remove(input.passId, input.userId);
    return { success: true };
  }

  @Handles(SUBJECTS.terminals.passGoogle)
  google(@Payload() input: PassMessage): Promise<PassGoogleView> {
    return this.passes.google(input.passId, input.userId);
  }

  @Handles(SUBJECTS.terminals.passApple)
  apple(@Payload() input: PassMessage): Promise<PassAppleData> {
    return this.passes.apple(input.passId, input.userId);
  }

  @Handles(SUBJECTS.terminals.walletConfig)
  walletConfig(@Payload() _input: EmptyMessage): WalletConfigView {
    return this.passes.walletConfig();
  }
}
