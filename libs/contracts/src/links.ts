/**
 * The link builder (the routes: docs/web-app.md#routes): every public and app URL of the product that the server also
 * makes (emails, the providers' return addresses) comes from here, so the web app's routes and the
 * links the services send can never drift apart. Browser-safe.
 */

/** The app's route patterns (react-router syntax) for the pages these links open. */
export const LINK_ROUTES = {
  storefront: '/shop/:guid/:serviceId',
  shop: '/s/:slug',
  order: '/orders/:orderId',
  receipt: '/orders/:orderId/receipt',
  orderReturn: '/orders/:orderId/return',
  sandboxPay: '/pay/sandbox/:sessionId',
  sellerOrder: '/account/orders/:orderId',
  request: '/requests/:requestId',
  billing: '/billing',
  newPlan: '/billing/plans/new',
  plan: '/billing/plans/:planId',
} as const;

/** Stripe replaces this text in a success URL with the Checkout Session's id. */
export const CHECKOUT_SESSION_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';

const seg = encodeURIComponent;

export interface LinkBuilder {
  /** A provider's public page: the service's products with an order form each. */
  storefront(guid: string, serviceId: string): string;
  /** The same page by the short link its seller chose (the long one keeps working). */
  shop(slug: string): string;
  /** The order as its buyer sees it (state, pay, replies, receipt). */
  order(orderId: string): string;
  /** The printable receipt. */
  receipt(orderId: string): string;
  /**
   * Where a payment provider sends the browser back; `sessionId` defaults to Stripe's placeholder.
   * `requestId`: the order pays that payment request, whose page the payer sees once it is confirmed.
   */
  orderReturn(orderId: string, sessionId?: string, requestId?: string): string;
  /** The sandbox processor's hosted pay page. */
  sandboxPay(sessionId: string): string;
  /** The order in the seller's account area (replies, fulfilment). */
  sellerOrder(orderId: string): string;
  /** A payment request as its payer opens it (with the emailed key) or its seller. */
  request(requestId: string, key?: string): string;
  /** The billing page; with `setupSessionId` (or Stripe's placeholder) when a setup page returns there. */
  billing(setupSessionId?: string): string;
  /** A plan with its charges, as its payer or seller sees it. */
  plan(planId: string): string;
  /** The form that starts a plan for a product of a seller's service. */
  newPlan(guid: string, serviceId: string, productId: string): string;
}

/** Links on `base` (the public origin, e.g. https://tinkerdesk.dev; '' for same-site paths in the app). */
export function linkBuilder(base = ''): LinkBuilder {
  const root = base.replace(/\/+$/, '');
  return {
    storefront: (guid, serviceId) => `${root}/shop/${seg(guid)}/${seg(serviceId)}`,
    shop: (slug) => `${root}/s/${seg(slug)}`,
    order: (orderId) => `${root}/orders/${seg(orderId)}`,
    receipt: (orderId) => `${root}/orders/${seg(orderId)}/receipt`,
    orderReturn: (orderId, sessionId, requestId) =>
      `${root}/orders/${seg(orderId)}/return?session_id=${sessionId === undefined ? CHECKOUT_SESSION_PLACEHOLDER : seg(sessionId)}${
        requestId ? `&request=${seg(requestId)}` : ''
      }`,
    sandboxPay: (sessionId) => `${root}/pay/sandbox/${seg(sessionId)}`,
    sellerOrder: (orderId) => `${root}/account/orders/${seg(orderId)}`,
    request: (requestId, key) => `${root}/requests/${seg(requestId)}${key ? `?key=${seg(key)}` : ''}`,
    billing: (setupSessionId) =>
      `${root}/billing${setupSessionId === undefined ? '' : `?setup=${setupSessionId === CHECKOUT_SESSION_PLACEHOLDER ? setupSessionId : seg(setupSessionId)}`}`,
    plan: (planId) => `${root}/billing/plans/${seg(planId)}`,
    newPlan: (guid, serviceId, productId) =>
      `${root}/billing/plans/new?seller=${seg(guid)}&service=${seg(serviceId)}&product=${seg(productId)}`,
  };
}
