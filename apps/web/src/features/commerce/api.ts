/**
 * Selling (issue 16): services, products, the public page, orders, payment and the sandbox pay page,
 * through the typed client. Calls that anyone may make send the token when there is one (docs/api.md "Who sees an order").
 */
import { bearer, unwrap, v1 } from '../../shared/api';
import type { ApiSchemas } from '../../shared/api';
import type { OrderState, ReferenceData } from '@tinkerdesk/contracts/web';

type Body<K extends keyof ApiSchemas> = ApiSchemas[K];

const auth = (token: string | null | undefined) => (token ? bearer(token) : {});

/** A fresh Idempotency-Key for one user action (retries of that action reuse it). */
export const newIdempotencyKey = (): string => crypto.randomUUID();

export const getStorefront = (guid: string, serviceId: string) =>
  unwrap(v1.GET('/v1/users/{id}/services/{sid}', { params: { path: { id: guid, sid: serviceId } } }));

export const listProducts = (token: string | null, guid: string, serviceId: string) =>
  unwrap(v1.GET('/v1/users/{id}/services/{sid}/products', { params: { path: { id: guid, sid: serviceId } }, headers: auth(token) }));

export const saveService = (token: string, guid: string, body: Body<'ServiceDto'>, serviceId?: string) =>
  serviceId
    ? unwrap(v1.POST('/v1/users/{guid}/services/{serviceId}', { params: { path: { guid, serviceId } }, body, headers: bearer(token) }))
    : unwrap(v1.POST('/v1/users/{guid}/services', { params: { path: { guid } }, body, headers: bearer(token) }));

export const validateAccount = (token: string, guid: string, body: Body<'ValidateAccountDto'>) =>
  unwrap(v1.POST('/v1/users/{guid}/validate', { params: { path: { guid } }, body, headers: bearer(token) }));

export const saveProduct = (token: string, guid: string, serviceId: string, body: Body<'ProductDto'>, productId?: string) =>
  productId
    ? unwrap(
        v1.POST('/v1/users/{id}/services/{sid}/products/{pid}', {
          params: { path: { id: guid, sid: serviceId, pid: productId } },
          body,
          headers: bearer(token),
        }),
      )
    : unwrap(
        v1.POST('/v1/users/{id}/services/{sid}/products', { params: { path: { id: guid, sid: serviceId } }, body, headers: bearer(token) }),
      );

export const deleteProduct = (token: string, guid: string, serviceId: string, productId: string) =>
  unwrap(
    v1.DELETE('/v1/users/{id}/services/{sid}/products/{pid}', {
      params: { path: { id: guid, sid: serviceId, pid: productId } },
      headers: bearer(token),
    }),
  );

export const placeOrder = (token: string | null, guid: string, serviceId: string, body: Body<'OrderDto'>) =>
  unwrap(v1.POST('/v1/users/{id}/services/{sid}/order', { params: { path: { id: guid, sid: serviceId } }, body, headers: auth(token) }));

export const payOrder = (token: string | null, orderId: string, key: string) =>
  unwrap(v1.POST('/v1/orders/{id}/pay', { params: { path: { id: orderId } }, headers: { ...auth(token), 'Idempotency-Key': key } }));

export const completeOrder = (token: string | null, orderId: string, sessionId: string, key: string) =>
  unwrap(
    v1.POST('/v1/orders/{id}/complete/{x}', {
      params: { path: { id: orderId, x: sessionId } },
      headers: { ...auth(token), 'Idempotency-Key': key },
    }),
  );

export const getOrder = (token: string | null, orderId: string, tz?: string) =>
  unwrap(v1.GET('/v1/orders/{id}', { params: { path: { id: orderId }, query: token || !tz ? {} : { tz } }, headers: auth(token) }));

export const cancelOrder = (token: string | null, orderId: string) =>
  unwrap(v1.POST('/v1/orders/{id}/cancel', { params: { path: { id: orderId } }, headers: auth(token) }));

export const refundOrder = (token: string, orderId: string, key: string) =>
  unwrap(v1.POST('/v1/orders/{id}/refund', { params: { path: { id: orderId } }, headers: { ...bearer(token), 'Idempotency-Key': key } }));

export const replyToOrder = (token: string, orderId: string, note: string) =>
  unwrap(v1.POST('/v1/orders/{id}/reply', { params: { path: { id: orderId } }, body: { note }, headers: bearer(token) }));

export const myOrders = (token: string, offset: number, limit: number, receipts = false) =>
  unwrap(
    v1.GET('/v1/orders', {
      params: { query: { offset, limit, ...(receipts ? { receipts: 'true' as const } : {}) } },
      headers: bearer(token),
    }),
  );

export const incomingOrders = (token: string, offset: number, limit: number, state?: OrderState) =>
  unwrap(v1.GET('/v1/fulfillment', { params: { query: { offset, limit, ...(state ? { state } : {}) } }, headers: bearer(token) }));

export const getFulfillment = (token: string, orderId: string) =>
  unwrap(v1.GET('/v1/fulfillment/{id}/order', { params: { path: { id: orderId } }, headers: bearer(token) }));

export const markFulfilled = (token: string, orderId: string, note: string) =>
  unwrap(
    v1.POST('/v1/fulfillment/{id}/fulfilled', { params: { path: { id: orderId } }, body: note ? { note } : {}, headers: bearer(token) }),
  );

export const getSandboxSession = (sessionId: string) =>
  unwrap(v1.GET('/v1/sandbox/sessions/{id}', { params: { path: { id: sessionId } } }));

export const paySandbox = (sessionId: string, body: Body<'SandboxCardDto'>) =>
  unwrap(v1.POST('/v1/sandbox/sessions/{id}/pay', { params: { path: { id: sessionId } }, body }));

export const authenticateSandbox = (sessionId: string, approve: boolean) =>
  unwrap(v1.POST('/v1/sandbox/sessions/{id}/authenticate', { params: { path: { id: sessionId } }, body: { approve } }));

export const cancelSandbox = (sessionId: string) =>
  unwrap(v1.POST('/v1/sandbox/sessions/{id}/cancel', { params: { path: { id: sessionId } } }));

export const sendRequest = (token: string, body: Body<'CreateRequestDto'>) =>
  unwrap(v1.POST('/v1/requests', { body, headers: bearer(token) }));

export const listRequests = (token: string, box: 'sent' | 'received', offset: number, limit: number) =>
  unwrap(v1.GET('/v1/requests', { params: { query: { box, offset, limit } }, headers: bearer(token) }));

export const getRequest = (token: string | null, requestId: string, key?: string) =>
  unwrap(v1.GET('/v1/requests/{id}', { params: { path: { id: requestId }, query: key ? { key } : {} }, headers: auth(token) }));

export const acceptRequest = (token: string | null, requestId: string, body: Body<'AcceptRequestDto'>, key?: string) =>
  unwrap(
    v1.POST('/v1/requests/{id}/accept', { params: { path: { id: requestId }, query: key ? { key } : {} }, body, headers: auth(token) }),
  );

export const declineRequest = (token: string | null, requestId: string, key?: string) =>
  unwrap(v1.POST('/v1/requests/{id}/decline', { params: { path: { id: requestId }, query: key ? { key } : {} }, headers: auth(token) }));

export const cancelRequest = (token: string, requestId: string) =>
  unwrap(v1.POST('/v1/requests/{id}/cancel', { params: { path: { id: requestId } }, headers: bearer(token) }));

export const getTimeline = (token: string, offset: number, limit: number) =>
  unwrap(v1.GET('/v1/timeline', { params: { query: { offset, limit } }, headers: bearer(token) }));

const referenceCache = new Map<string, Promise<ReferenceData['items']>>();

/** A reference list of the platform (GET /v1/reference/{name}), fetched once per page load. */
export function getReference(name: ReferenceData['name']): Promise<ReferenceData['items']> {
  let found = referenceCache.get(name);
  if (!found) {
    found = unwrap(v1.GET('/v1/reference/{name}', { params: { path: { name } } })).then((answer) => answer.items);
    found.catch(() => referenceCache.delete(name));
    referenceCache.set(name, found);
  }
  return found;
}

export const listInstruments = (token: string) => unwrap(v1.GET('/v1/paymentinstruments', { headers: bearer(token) }));

/** Opens the provider's card page (its url): the browser goes there and comes back to /billing?setup={id}. */
export const startCardSetup = (token: string, provider?: 'stripe' | 'sandbox') =>
  unwrap(v1.POST('/v1/paymentmethods', { body: provider ? { provider } : {}, headers: bearer(token) }));

export const completeCardSetup = (token: string, sessionId: string) =>
  unwrap(v1.POST('/v1/paymentmethods/setup/{id}/complete', { params: { path: { id: sessionId } }, headers: bearer(token) }));

export const makeDefaultCard = (token: string, methodId: string) =>
  unwrap(v1.POST('/v1/paymentmethods/{id}/default', { params: { path: { id: methodId } }, headers: bearer(token) }));

export const deleteCard = (token: string, methodId: string, replacement?: string) =>
  unwrap(
    v1.DELETE('/v1/paymentmethods/{id}', {
      params: { path: { id: methodId }, query: replacement ? { replacement } : {} },
      headers: bearer(token),
    }),
  );

export const listPlans = (token: string) => unwrap(v1.GET('/v1/plans', { headers: bearer(token) }));

export const getPlan = (token: string, planId: string) =>
  unwrap(v1.GET('/v1/plans/{id}', { params: { path: { id: planId } }, headers: bearer(token) }));

export const createPlan = (token: string, body: Body<'CreatePlanDto'>) => unwrap(v1.POST('/v1/plans', { body, headers: bearer(token) }));

export const cancelPlan = (token: string, planId: string) =>
  unwrap(v1.DELETE('/v1/plans/{id}', { params: { path: { id: planId } }, headers: bearer(token) }));

export const getProduct = (guid: string, serviceId: string, productId: string) =>
  unwrap(v1.GET('/v1/users/{id}/services/{sid}/products/{pid}', { params: { path: { id: guid, sid: serviceId, pid: productId } } }));
