import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Handles } from '@tinkerdesk/nest-common';
import {
  ResolveShopMessage,
  SaveServiceMessage,
  SUBJECTS,
  UserServicesMessage,
  ValidateAccountDto,
  type AccountValidation,
  type ServiceView,
  type ShopAddress,
} from '@tinkerdesk/contracts';
import { ProviderServicesService } from './provider-services.service.js';

/** NATS handlers: translate only. */
@Controller()
export class ProviderServicesController {
  constructor(private readonly services: ProviderServicesService) {}

  @Handles(SUBJECTS.commerce.serviceList)
  list(@Payload() input: UserServicesMessage): Promise<ServiceView[]> {
    return this.services.listForUser(input.userId);
  }

  @Handles(SUBJECTS.commerce.serviceSave)
  save(@Payload() input: SaveServiceMessage): Promise<ServiceView> {
    return this.services.save(input);
  }

  @Handles(SUBJECTS.commerce.shopResolve)
  resolve(@Payload() input: ResolveShopMessage): Promise<ShopAddress> {
    return this.services.resolve(input);
  }

  @Handles(SUBJECTS.commerce.accountValidate)
  validate(@Payload() input: ValidateAccountDto): Promise<AccountValidation> {
    return this.services.validate(input);
  }
}
