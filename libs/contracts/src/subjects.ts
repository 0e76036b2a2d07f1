/**
 * NATS subjects: `<service>.<resource>.<verb>`; events are past tense. Call sites use these
 * constants, never string literals. A deployment may prefix every subject (NATS_PREFIX) so that
 * test runs and environments sharing one NATS never collide.
 */
export const SERVICES = ['identity', 'commerce', 'terminals', 'conversion'] as const;
export type ServiceName = (typeof SERVICES)[number];

export const SUBJECTS = {
  identity: {
    health: 'identity.health.check',
    userCreate: 'identity.user.create',
    userSignin: 'identity.user.signin',
    userMe: 'identity.user.me',
    userUpdate: 'identity.user.update',
    userPublic: 'identity.user.public',
    sessionVerify: 'identity.session.verify',
    sessionEnd: 'identity.session.end',
    /** Event (every gateway replica, no queue group): sessions ended; cached checks of them must go. */
    sessionRevoked: 'identity.session.revoked',
    userChanged: 'identity.user.changed',
    contactCreate: 'identity.contact.create',
    verificationRequest: 'identity.verification.request',
    verificationConfirm: 'identity.verification.confirm',
    resetRequest: 'identity.reset.request',
    resetConfirm: 'identity.reset.confirm',
    resetCheck: 'identity.reset.check',
    codeCreate: 'identity.code.create',
    codeExchange: 'identity.code.exchange',
    oidcList: 'identity.oidc.list',
    oidcAuthorize: 'identity.oidc.authorize',
    oidcExchange: 'identity.oidc.exchange',
    /** Send an email (to an account by id, or to an address) through identity's mail queue. */
    mailSend: 'identity.mail.send',
    /** The account with this verified email address, if any (commerce: whose timeline a request reaches). */
    userFindByEmail: 'identity.user.find-by-email',
    /** OAuth: oidc-provider's records (its adapter in the gateway keeps them here). */
    oauthPayloadUpsert: 'identity.oauth.payload-upsert',
    oauthPayloadFind: 'identity.oauth.payload-find',
    oauthPayloadFindByUid: 'identity.oauth.payload-find-by-uid',
    oauthPayloadConsume: 'identity.oauth.payload-consume',
    oauthPayloadDestroy: 'identity.oauth.payload-destroy',
    oauthGrantRevoke: 'identity.oauth.grant-revoke',
    /** OAuth: a registered app as oidc-provider's client metadata. */
    oauthClientGet: 'identity.oauth.client-get',
    oauthAppCreate: 'identity.oauth.app-create',
    oauthAppList: 'identity.oauth.app-list',
    oauthAppDelete: 'identity.oauth.app-delete',
    oauthAppUpdate: 'identity.oauth.app-update',
    /** A confidential app's new client secret (the old one stops working). */
    oauthAppSecret: 'identity.oauth.app-secret',
    oauthConsentList: 'identity.oauth.consent-list',
    oauthConsentWithdraw: 'identity.oauth.consent-withdraw',
  },
  commerce: {
    health: 'commerce.health.check',
    serviceList: 'commerce.service.list',
    serviceSave: 'commerce.service.save',
    accountValidate: 'commerce.account.validate',
    productList: 'commerce.product.list',
    productGet: 'commerce.product.get',
    productSave: 'commerce.product.save',
    productDelete: 'commerce.product.delete',
    productImageStore: 'commerce.product.image-store',
    productImageDelete: 'commerce.product.image-delete',
    productImageGet: 'commerce.product.image-get',
    storefrontGet: 'commerce.storefront.get',
    shopResolve: 'commerce.shop.resolve',
    orderCreate: 'commerce.order.create',
    orderGet: 'commerce.order.get',
    orderList: 'commerce.order.list',
    orderPay: 'commerce.order.pay',
    orderComplete: 'commerce.order.complete',
    orderCancel: 'commerce.order.cancel',
    orderRefund: 'commerce.order.refund',
    orderReply: 'commerce.order.reply',
    fulfillmentGet: 'commerce.fulfillment.get',
    fulfillmentComplete: 'commerce.fulfillment.complete',
    sellerOverview: 'commerce.seller.overview',
    sellerOrders: 'commerce.seller.orders',
    sellerSeen: 'commerce.seller.seen',
    webhookStripe: 'commerce.webhook.stripe',
    sandboxGet: 'commerce.sandbox.get',
    sandboxPay: 'commerce.sandbox.pay',
    sandboxAuthenticate: 'commerce.sandbox.authenticate',
    sandboxCancel: 'commerce.sandbox.cancel',
    requestCreate: 'commerce.request.create',
    requestGet: 'commerce.request.get',
    requestList: 'commerce.request.list',
    requestAccept: 'commerce.request.accept',
    requestDecline: 'commerce.request.decline',
    requestCancel: 'commerce.request.cancel',
    timelineList: 'commerce.timeline.list',
    timelineGet: 'commerce.timeline.get',
    planCreate: 'commerce.plan.create',
    planList: 'commerce.plan.list',
    planGet: 'commerce.plan.get',
    planCancel: 'commerce.plan.cancel',
    methodSetup: 'commerce.method.setup',
    methodComplete: 'commerce.method.complete',
    methodList: 'commerce.method.list',
    methodDefault: 'commerce.method.default',
    methodDelete: 'commerce.method.delete',
  },
  terminals: {
    health: 'terminals.health.check',
    terminalRegister: 'terminals.terminal.register',
    terminalList: 'terminals.terminal.list',
    terminalGet: 'terminals.terminal.get',
    terminalUpdate: 'terminals.terminal.update',
    terminalRemove: 'terminals.terminal.remove',
    tokenVerify: 'terminals.token.verify',
    /** OAuth grants ended: the terminals their apps registered are removed. */
    grantsEnded: 'terminals.grant.ended',
    /** The OAuth grants under which apps registered a user's terminals. */
    grantList: 'terminals.grant.list',
    subscriptionSave: 'terminals.subscription.save',
    subscriptionRemove: 'terminals.subscription.remove',
    shareSend: 'terminals.share.send',
    shareList: 'terminals.share.list',
    shareRemove: 'terminals.share.remove',
    pushKey: 'terminals.push.key',
    passSave: 'terminals.pass.save',
    passGet: 'terminals.pass.get',
    passList: 'terminals.pass.list',
    passDelete: 'terminals.pass.delete',
    /** A pass image (PNG, base64) stored before the save that references it: each NATS message stays under 1 MiB. */
    passImageStore: 'terminals.pass.image-store',
    passImageGet: 'terminals.pass.image-get',
    /** The "Save to Google Wallet" link of a pass (or, unconfigured, its JSON only). */
    passGoogle: 'terminals.pass.google',
    /** The signed .pkpass of a pass, base64. */
    passApple: 'terminals.pass.apple',
    walletConfig: 'terminals.wallet.config',
  },
  conversion: {
    health: 'conversion.health.check',
    jobCreate: 'conversion.job.create',
    jobGet: 'conversion.job.get',
    jobList: 'conversion.job.list',
    jobDelete: 'conversion.job.delete',
    jobFinished: 'conversion.job.finished',
    engines: 'conversion.engines.get',
    fileCreate: 'conversion.file.create',
    fileComplete: 'conversion.file.complete',
    fileList: 'conversion.file.list',
    fileDownload: 'conversion.file.download',
    fileDelete: 'conversion.file.delete',
    /** The gateway withdraws a declaration whose answer it gave up waiting for. */
    fileAbandon: 'conversion.file.abandon',
    fileUploadBegin: 'conversion.file.upload-begin',
    fileUploadEnd: 'conversion.file.upload-end',
  },
} as const satisfies Record<ServiceName, Record<string, string>>;

export type HealthSubject = (typeof SUBJECTS)[ServiceName]['health'];

export function healthSubject(service: ServiceName): HealthSubject {
  return SUBJECTS[service].health;
}

export function prefixed(prefix: string, subject: string): string {
  return prefix ? `${prefix}.${subject}` : subject;
}

/** NATS header that carries the request id from the gateway to the services. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Version reported by health checks and the OpenAPI document. */
export const PLATFORM_VERSION = '0.1.0';
