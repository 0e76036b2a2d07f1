import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  SellerOrdersMessage,
  SellerOverviewMessage,
  SellerSeenMessage,
  SUBJECTS,
  type SellerOrderList,
  type SellerOverviewView,
} from '@tinkerdesk/contracts';
import { Handles } from '@tinkerdesk/nest-common';
import { SalesService } from './sales.service.js';

/** NATS handlers of the seller's overview: translate only. */
@Controller()
export class SalesController {
  constructor(@Inject(SalesService) private readonly sales: SalesService) {}

  @Handles(SUBJECTS.commerce.sellerOverview)
  overview(@Payload() input: SellerOverviewMessage): Promise<SellerOverviewView> {
    return this.sales.overview(input);
  }

  @Handles(SUBJECTS.commerce.sellerOrders)
  orders(@Payload() input: SellerOrdersMessage): Promise<SellerOrderList> {
    return this.sales.orders(input);
  }

  @Handles(SUBJECTS.commerce.sellerSeen)
  seen(@Payload() input: SellerSeenMessage): Promise<{ seenAt: string }> {
    return this.sales.markSeen(input.sellerId);
  }
}
