/**
 * Every success body of /v1, by name. The gateway documents each route's answer with
 * `@ApiAnswer(status, 'Name')`, which also makes the compiler check that the route returns exactly
 * `ResponseMap['Name']`; the JSON schemas in /v1/openapi.json are generated from these types
 * (`npm run api:generate`), and the generated web client (`@tinkerdesk/api-client`) types its answers
 * with them. Browser-safe: types only.
 */
import type { AccountView } from './account-views.js';
import type { SellerOrderList, SellerOverviewView } from './seller-overview-views.js';
import type {
  AccountValidation,
  FulfillmentView,
  OrderList,
  OrderView,
  PaymentStart,
  ProductView,
  SandboxSessionView,
  ServiceView,
  StorefrontView,
  ReferenceData,
  PaymentRequestList,
  PaymentRequestView,
  TimelineEvent,
  TimelinePage,
  PaymentInstrumentList,
  PaymentInstrumentView,
  PaymentSetupView,
  PlanList,
  PlanView,
} from './commerce-views.js';
import type {
  OAuthAppCreated,
  OAuthAppList,
  OAuthAppUpdated,
  OAuthConsentList,
  OAuthInteractionAppView,
  OAuthInteractionView,
} from './oauth-views.js';
import type { ShareList, ShareView, TerminalList, TerminalRegistration, TerminalView } from './terminals-views.js';
import type { PassGoogleView, PassList, PassView, WalletConfigView } from './passes-views.js';
import type { ConversionJobList, ConversionJobView, FetchedContentView } from './conversion-views.js';
import type { SourceFormat, TargetFormat } from './conversion-formats.js';
import type { EngineStatus } from './conversion-engines.js';
import type { DownloadTicket, SavedFileList, SavedFileView, UploadTicket } from './files-views.js';
import type { HealthReport, PublicHealthReport } from './health.js';
import type {
  AuthResult,
  CodeView,
  LogoutResult,
  OidcAuthorizeResult,
  OidcExchangeResult,
  OidcProvidersResult,
  Profile,
  PublicProfile,
} from './identity-views.js';

/** Every success body carries `success: true`. */
export interface Success {
  success: true;
}

export interface ResponseMap {
  /** An action that answers nothing else. */
  Ok: Success;
  Auth: Success & AuthResult;
  Account: Success & AccountView;
  Profile: Success & Profile;
  PublicProfile: Success & PublicProfile;
  Code: Success & CodeView;
  Logout: LogoutResult;
  VerificationSent: Success & {
    /** False when the address is verified already or a link was sent moments ago. */
    sent: boolean;
  };
  ContactReceived: Success & {
    /** The message's id, for the reply. */
    id: string;
  };
  OidcProviders: Success & OidcProvidersResult;
  OidcAuthorize: Success & OidcAuthorizeResult;
  OidcExchange: Success & OidcExchangeResult;
  FetchedContent: FetchedContentView;
  ConversionFormats: Success & {
    /** The source formats the live workers can convert now (all of them while no worker is live). */
    formats: readonly SourceFormat[];
    targets: TargetFormat[];
    /** The engines of the live workers: which some have, which none has (whose formats are left out above). */
    engines: EngineStatus;
  };
  ConversionJob: Success & { job: ConversionJobView };
  ConversionJobs: Success & ConversionJobList;
  ConversionJobStopped: Success & {
    /** `cancelled`: it was still waiting or running; `deleted`: it had ended, its files are gone. */
    state: 'cancelled' | 'deleted';
  };
  SavedFileCreated: Success & { file: SavedFileView; upload: UploadTicket };
  SavedFile: Success & { file: SavedFileView };
  SavedFiles: Success & SavedFileList;
  FileDownload: Success & DownloadTicket;
  Service: Success & { service: ServiceView };
  AccountValidation: Success & AccountValidation;
  Products: Success & { products: ProductView[] };
  Product: Success & { product: ProductView };
  ProductDeleted: Success & {
    /** True: removed; false: it has orders, so it was deactivated instead (orders keep what was bought). */
    deleted: boolean;
  };
  Storefront: Success & StorefrontView;
  Order: Success & { order: OrderView };
  Orders: Success & OrderList;
  Payment: Success & PaymentStart;
  Fulfillment: Success & FulfillmentView;
  SellerOverview: Success & { overview: SellerOverviewView };
  SellerOrders: Success & SellerOrderList;
  SellerSeen: Success & {
    /** The seen marker now: orders paid after it are new. */
    seenAt: string;
  };
  WebhookReceived: Success & {
    /** False when the event was applied before (a replay) or concerns nothing here. */
    applied: boolean;
  };
  SandboxSession: Success & { session: SandboxSessionView };
  PaymentRequest: Success & { request: PaymentRequestView };
  PaymentRequests: Success & PaymentRequestList;
  RequestAccepted: Success & { request: PaymentRequestView; order: OrderView };
  Timeline: Success & TimelinePage;
  Reference: Success & ReferenceData;
  TimelineEvent: Success & { event: TimelineEvent };
  Plan: Success & { plan: PlanView };
  Plans: Success & PlanList;
  PaymentInstruments: Success & PaymentInstrumentList;
  PaymentInstrument: Success & { instrument: PaymentInstrumentView };
  PaymentSetup: Success & { setup: PaymentSetupView };
  TerminalRegistered: Success & TerminalRegistration;
  Terminal: Success & { terminal: TerminalView };
  Terminals: Success & TerminalList;
  Share: Success & { share: ShareView };
  Shares: Success & ShareList;
  PushKey: Success & {
    /** The VAPID public key (base64url): the applicationServerKey of PushManager.subscribe. */
    publicKey: string;
  };
  OAuthAppCreated: Success & OAuthAppCreated;
  OAuthAppUpdated: Success & OAuthAppUpdated;
  OAuthApps: Success & OAuthAppList;
  OAuthConsents: Success & OAuthConsentList;
  OAuthInteraction: Success & OAuthInteractionView;
  OAuthInteractionApp: Success & OAuthInteractionAppView;
  Pass: Success & { pass: PassView };
  Passes: Success & PassList;
  PassGoogle: Success & PassGoogleView;
  WalletConfig: Success & WalletConfigView;
  Health: HealthReport | PublicHealthReport;
  Probe: { status: 'up' };
}

export type ResponseName = keyof ResponseMap;
