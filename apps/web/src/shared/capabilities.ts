/**
 * What the platform can do today, beyond the browser tools (those are built when their page exists:
 * tools/registry.ts). Pages mention a capability only inside <Coming what=...>: while it is not built
 * its words carry a plain "Coming soon" mark; the issue that builds it sets `built: true` and the words
 * turn on. e2e/claims.e2e.ts reads every information page, the footer and the tool lists and fails when
 * a claim about something not built is not marked, or a built one still is.
 */
export const CAPABILITIES = {
  /** File and URL conversion on the server (POST /v1/convert/..., its page). */
  serverConversion: { built: true, name: 'Server conversion' },
  /** Saved files: "Save to my files" on results and tool outputs, listed on /account (POST /v1/files...). */
  savedFiles: { built: true, name: 'Saved files' },
  /** Provider services and products, public pages, orders, payment and receipts. */
  selling: { built: true, name: 'Selling from a public page' },
  /** Payment requests by email (accept and pay, or decline) and the account's timeline in Billing. */
  requests: { built: true, name: 'Payment requests and the timeline' },
  /** Recurring plans and saved payment methods in Billing. */
  billing: { built: true, name: 'Plans and payment methods' },
  /** Browsers registered as terminals that share links, with push notifications. */
  terminals: { built: true, name: 'Terminals and push notifications' },
  /** The Bluetooth beeper on /integrations/hardware/. */
  beeper: { built: true, name: 'Bluetooth beeper' },
  /** OAuth 2 for apps: integrators act for users with their consent (Account → Apps and access). */
  oauthApps: { built: true, name: 'OAuth 2 for apps' },
} as const;

export type Capability = keyof typeof CAPABILITIES;

export const isBuilt = (what: Capability): boolean => CAPABILITIES[what].built;
