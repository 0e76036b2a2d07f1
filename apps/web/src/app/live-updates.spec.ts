/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
import { describe, expect, it } from '@jest/globals';
import { LIVE_EVENTS } from '@tinkerdesk/contracts/web';
import { billingKeys } from '../features/commerce/hooks/queries';
import { orderKeys } from '../features/commerce/hooks/orders';
import { requestKeys } from '../features/commerce/hooks/requests';
import { sellingKeys } from '../features/commerce/hooks/selling';
import { terminalKeys } from '../features/terminals/hooks/queries';
import { keysOf, LIVE_KEYS } from './live-updates';

describe('live updates', () => {
  it('use the prefixes of the features’ key factories', () => {
    expect(LIVE_KEYS).toEqual({
      terminals: terminalKeys.all,
      orders: orderKeys.all,
      selling: sellingKeys.all,
      billing: billingKeys.all,
      requests: requestKeys.all,
    });
  });

  it('reload the inbox and terminal list for shares and terminals, an order’s page and lists for an order', () => {
    expect(keysOf({ type: LIVE_EVENTS.shareReceived, ids: { shareId: 's', terminalId: 't' } })).toEqual([terminalKeys.all]);
    // A removed terminal: the list only (its open inbox is not read again, a 404, before the list closes it).
    expect(keysOf({ type: LIVE_EVENTS.terminalRemoved, ids: { terminalId: 't' } })).toEqual([terminalKeys.overview()]);
    expect(keysOf({ type: LIVE_EVENTS.orderPaid, ids: { orderId: 'o1' } })).toEqual([
      orderKeys.one('o1'),
      sellingKeys.all,
      billingKeys.all,
    ]);
    expect(keysOf({ type: LIVE_EVENTS.planCharged, ids: { planId: 'p' } })).toEqual([billingKeys.all]);
    expect(keysOf({ type: LIVE_EVENTS.requestDeclined, ids: { requestId: 'r' } })).toContainEqual(requestKeys.all);
  });
});
