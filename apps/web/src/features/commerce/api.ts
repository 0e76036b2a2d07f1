/**
 * Selling (issue 16): services, products, the public page, orders, payment and the sandbox pay page,
 * through the typed client. Calls that anyone may make send the token when there is one (docs/api.md "Who sees an order"); the public
 * pages' own calls (storefront, sandbox card page, reference lists) go without a session.
 */
import { anonymous, unwrap, v1 } from '../../shared/api';
import { takeEarlyShop } from '../../shared/early-shop';
import type { ApiSchemas } from '../../shared/api';
import type { ReferenceData } from '@tinkerdesk/contracts/web';

type Body<K extends keyof ApiSchemas> = ApiSchemas[K];

/** A fresh Idempotency-Key for one user action (retries of that action reuse it). */
export const newIdempotencyKey = (): string => crypto.randomUUID();

/** The entry's request (shared/early-shop.ts) when it is this one: the shop page's first read. */
const earlyOrFetch = (request: Request) => takeEarlyShop(request) ?? fetch(request);

export const getStorefront = (guid: string, serviceId: string) =>
  unwrap(anonymous.GET('/v1/users/{id}/services/{sid}', { params: { path: { id: guid, sid: serviceId } }, fetch: earlyOrFetch }));

/** The same page by its short link (/s/{slug}). */
export const getShop = (slug: string) => unwrap(anonymous.GET('/v1/shops/{slug}', { params: { path: { slug } }, fetch: earlyOrFetch }));

/**
 * The signed-in user's services (GET /v1/users/me?include=services). Not the session's profile: the
 * profile a sign-in answers carries no services, so a seller who signed in would see none.
 */
export const myServices = async () => (await unwrap(v1.GET('/v1/users/me', { params: { query: { include: 'services' } } }))).services ?? [];

export const listProducts = (guid: string, serviceId: string) =>
  unwrap(v1.GET('/v1/users/{id}/services/{sid}/products', { params: { path: { id: guid, sid: serviceId } } }));

export const saveService = (guid: string, body: Body<'ServiceDto'>, serviceId?: string) =>
  serviceId
    ? unwrap(v1.POST('/v1/users/{guid}/services/{serviceId}', { params: { path: { guid, serviceId } }, body }))
    : unwrap(v1.POST('/v1/users/{guid}/services', { params: { path: { guid } }, body }));

export const validateAccount = (guid: string, body: Body<'ValidateAccountDto'>) =>
  unwrap(v1.POST('/v1/users/{guid}/validate', { params: { path: { guid } }, body }));

export const saveProduct = (guid: string, serviceId: string, body: Body<'ProductDto'>, productId?: string) =>
  productId
    ? unwrap(
        v1.POST('/v1/users/{id}/services/{sid}/products/{pid}', {
          params: { path: { id: guid, sid: serviceId, pid: productId } },
          body,
        }),
      )
    : unwrap(v1.POST('/v1/users/{id}/services/{sid}/products', { params: { path: { id: guid, sid: serviceId } }, body }));

export const deleteProduct = (guid: string, serviceId: string, productId: string) =>
  unwrap(
    v1.DELETE('/v1/users/{id}/services/{sid}/products/{pid}', {
      params: { path: { id: guid, sid: serviceId, pid: productId } },
    }),
  );

export const placeOrder = (guid: string, serviceId: string, body: Body<'OrderDto'>) =>
  unwrap(v1.POST('/v1/users/{id}/services/{sid}/order', { params: { path: { id: guid, sid: serviceId } }, body }));

export const payOrder = (orderId: string, key: string) =>
  unwrap(v1.POST('/v1/orders/{id}/pay', { params: { path: { id: orderId } }, headers: { 'Idempotency-Key': key } }));

export const completeOrder = (orderId: string, sessionId: string, key: string) =>
  unwrap(
    v1.POST('/v1/orders/{id}/complete/{x}', {
      params: { path: { id: orderId, x: sessionId } },
      headers: { 'Idempotency-Key': key },
    }),
  );

/** `tz` only for a guest (no session): the times of the answer in that zone. */
export const getOrder = (orderId: string, tz?: string) =>
  unwrap(v1.GET('/v1/orders/{id}', { params: { path: { id: orderId }, query: tz ? { tz } : {} } }));

export const cancelOrder = (orderId: string) => unwrap(v1.POST('/v1/orders/{id}/cancel', { params: { path: { id: orderId } } }));

/** Refunds `amount` cents (all that remains when absent), with an optional reason for the buyer. */
export const refundOrder = (orderId: string, key: string, body: { amount?: number; reason?: string }) =>
  unwrap(v1.POST('/v1/orders/{id}/refund', { params: { path: { id: orderId } }, headers: { 'Idempotency-Key': key }, body }));

export const replyToOrder = (orderId: string, note: string) =>
  unwrap(v1.POST('/v1/orders/{id}/reply', { params: { path: { id: orderId } }, body: { note } }));

export const myOrders = (offset: number, limit: number, receipts = false) =>
  unwrap(
    v1.GET('/v1/orders', {
      params: { query: { offset, limit, ...(receipts ? { receipts: 'true' as const } : {}) } },
    }),
  );

export const getFulfillment = (orderId: string) => unwrap(v1.GET('/v1/fulfillment/{id}/order', { params: { path: { id: orderId } } }));

export const markFulfilled = (orderId: string, note: string) =>
  unwrap(v1.POST('/v1/fulfillment/{id}/fulfilled', { params: { path: { id: orderId } }, body: note ? { note } : {} }));

export const getSandboxSession = (sessionId: string) =>
  unwrap(anonymous.GET('/v1/sandbox/sessions/{id}', { params: { path: { id: sessionId } } }));

export const paySandbox = (sessionId: string, body: Body<'SandboxCardDto'>) =>
  unwrap(anonymous.POST('/v1/sandbox/sessions/{id}/pay', { params: { path: { id: sessionId } }, body }));

export const authenticateSandbox = (sessionId: string, approve: boolean) =>
  unwrap(anonymous.POST('/v1/sandbox/sessions/{id}/authenticate', { params: { path: { id: sessionId } }, body: { approve } }));

export const cancelSandbox = (sessionId: string) =>
  unwrap(anonymous.POST('/v1/sandbox/sessions/{id}/cancel', { params: { path: { id: sessionId } } }));

export const sendRequest = (body: Body<'CreateRequestDto'>) => unwrap(v1.POST('/v1/requests', { body }));

export const listRequests = (box: 'sent' | 'received', offset: number, limit: number) =>
  unwrap(v1.GET('/v1/requests', { params: { query: { box, offset, limit } } }));

export const getRequest = (requestId: string, key?: string) =>
  unwrap(v1.GET('/v1/requests/{id}', { params: { path: { id: requestId }, query: key ? { key } : {} } }));

export const acceptRequest = (requestId: string, body: Body<'AcceptRequestDto'>, key?: string) =>
  unwrap(v1.POST('/v1/requests/{id}/accept', { params: { path: { id: requestId }, query: key ? { key } : {} }, body }));

/** Declines the request; `reason` (optional) is shown to the seller. */
export const declineRequest = (requestId: string, key?: string, reason?: string) =>
  unwrap(
    v1.POST('/v1/requests/{id}/decline', {
      params: { path: { id: requestId }, query: key ? { key } : {} },
      body: reason ? { reason } : {},
    }),
  );

export const cancelRequest = (requestId: string) => unwrap(v1.POST('/v1/requests/{id}/cancel', { params: { path: { id: requestId } } }));

export const getTimeline = (offset: number, limit: number) => unwrap(v1.GET('/v1/timeline', { params: { query: { offset, limit } } }));

const referenceCache = new Map<string, Promise<ReferenceData['items']>>();

/** A reference list of the platform (GET /v1/reference/{name}), fetched once per page load. */
export function getReference(name: ReferenceData['name']): Promise<ReferenceData['items']> {
  let found = referenceCache.get(name);
  if (!found) {
    found = unwrap(anonymous.GET('/v1/reference/{name}', { params: { path: { name } } })).then((answer) => answer.items);
    found.catch(() => referenceCache.delete(name));
    referenceCache.set(name, found);
  }
  return found;
}

export const listInstruments = () => unwrap(v1.GET('/v1/paymentinstruments'));

/** Opens the provider's card page (its url): the browser goes there and comes back to /billing?setup={id}. */
export const startCardSetup = (provider?: 'stripe' | 'sandbox') =>
  unwrap(v1.POST('/v1/paymentmethods', { body: provider ? { provider } : {} }));

export const completeCardSetup = (sessionId: string) =>
  unwrap(v1.POST('/v1/paymentmethods/setup/{id}/complete', { params: { path: { id: sessionId } } }));

export const makeDefaultCard = (methodId: string) =>
  unwrap(v1.POST('/v1/paymentmethods/{id}/default', { params: { path: { id: methodId } } }));

export const deleteCard = (methodId: string, replacement?: string) =>
  unwrap(
    v1.DELETE('/v1/paymentmethods/{id}', {
      params: { path: { id: methodId }, query: replacement ? { replacement } : {} },
    }),
  );

export const listPlans = () => unwrap(v1.GET('/v1/plans'));

export const getPlan = (planId: string) => unwrap(v1.GET('/v1/plans/{id}', { params: { path: { id: planId } } }));

export const createPlan = (body: Body<'CreatePlanDto'>) => unwrap(v1.POST('/v1/plans', { body }));

export const cancelPlan = (planId: string) => unwrap(v1.DELETE('/v1/plans/{id}', { params: { path: { id: planId } } }));

export const getProduct = (guid: string, serviceId: string, productId: string) =>
  unwrap(anonymous.GET('/v1/users/{id}/services/{sid}/products/{pid}', { params: { path: { id: guid, sid: serviceId, pid: productId } } }));
