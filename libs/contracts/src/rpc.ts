import type { SellerOrdersMessage, SellerOverviewMessage, SellerSeenMessage } from './seller-overview.js';
import type { SellerOrderList, SellerOverviewView } from './seller-overview-views.js';
import type { CreateConversionJobMessage, ListJobsMessage, OwnedJobMessage } from './conversion.js';
import type { CreateSavedFileMessage, FileUploadBeginMessage, FileUploadEndMessage, ListFilesMessage, OwnedFileMessage } from './files.js';
import type { DownloadTicket, SavedFileList, SavedFileView, UploadTicket } from './files-views.js';
import type { EngineStatus } from './conversion-engines.js';
import type { ConversionJobList, ConversionJobView, JobFinishedEvent } from './conversion-views.js';
import type {
  CompleteOrderMessage,
  CreateOrderMessage,
  DeleteProductImageMessage,
  DeleteProductMessage,
  GetProductImageMessage,
  FulfilMessage,
  GetProductMessage,
  ListOrdersMessage,
  ListProductsMessage,
  OrderMessage,
  PayOrderMessage,
  RefundOrderMessage,
  ReplyMessage,
  SandboxAuthenticateMessage,
  SandboxPayMessage,
  SandboxSessionMessage,
  SaveProductMessage,
  StoreProductImageMessage,
  SaveServiceMessage,
  StorefrontMessage,
  ResolveShopMessage,
  StripeWebhookMessage,
  UserServicesMessage,
  ValidateAccountDto,
  AcceptRequestMessage,
  CreateRequestMessage,
  DeclineRequestMessage,
  ListRequestsMessage,
  RequestMessage,
  TimelineEventMessage,
  TimelineQueryMessage,
  CompleteSetupMessage,
  CreatePlanMessage,
  PaymentMethodMessage,
  PlanMessage,
  SetupPaymentMethodMessage,
} from './commerce.js';
import type {
  ListSharesMessage,
  GrantsEndedMessage,
  RegisterTerminalMessage,
  SaveSubscriptionMessage,
  SendShareMessage,
  ShareMessage,
  TerminalMessage,
  TerminalTokenMessage,
  UpdateTerminalMessage,
} from './terminals.js';
import type { ShareList, ShareView, TerminalCallerView, TerminalList, TerminalRegistration, TerminalView } from './terminals-views.js';
import type { ListPassesMessage, PassImageMessage, PassMessage, SavePassMessage, StorePassImageMessage } from './passes.js';
import type {
  PassAppleData,
  PassGoogleView,
  PassImageData,
  PassImageRef,
  PassList,
  PassSaved,
  PassView,
  WalletConfigView,
} from './passes-views.js';
import type {
  AccountValidation,
  FulfillmentView,
  OrderList,
  OrderView,
  PaymentStart,
  ProductImageData,
  ProductView,
  SandboxSessionView,
  ServiceView,
  StorefrontView,
  ShopAddress,
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
import type { ServiceHealth } from './health.js';
import type {
  ContactMessage,
  CreateCodeMessage,
  CreateUserMessage,
  ExchangeCodeMessage,
  OidcAuthorizeMessage,
  OidcExchangeMessage,
  PublicProfileMessage,
  ResetCheckDto,
  ResetPasswordDto,
  ResetSetupDto,
  FindByEmailMessage,
  SendMailMessage,
  SignInMessage,
  TokenMessage,
  UpdateProfileMessage,
  UserIdMessage,
  RequestVerificationMessage,
  VerifyEmailDto,
} from './identity.js';
import type {
  AuthResult,
  SignInResult,
  CodeView,
  LogoutResult,
  OidcAuthorizeResult,
  OidcExchangeResult,
  OidcProvidersResult,
  Profile,
  PublicProfile,
  SessionInfo,
  SessionRevokedEvent,
  UserChangedEvent,
} from './identity-views.js';
import type {
  CreateOAuthAppMessage,
  OAuthAppMessage,
  UpdateOAuthAppMessage,
  OAuthClientMessage,
  OAuthClientMetadata,
  OAuthConsentMessage,
  OAuthGrantMessage,
  OAuthGrantsEnded,
  OAuthPayloadMessage,
  OAuthPayloadResult,
  OAuthUidMessage,
  UpsertOAuthPayloadMessage,
} from './oauth.js';
import type { OAuthAppCreated, OAuthAppList, OAuthAppUpdated, OAuthConsentList } from './oauth-views.js';
import { SUBJECTS } from './subjects.js';

/** The message of a request whose handler needs nothing (health checks, lists of everything). */
export type EmptyMessage = Record<string, never>;

/** `{ success: true }` and, for some calls, more. */
export interface Done {
  success: true;
}

/**
 * The one map from each request/reply subject to its request and its response. `RpcClient.send`
 * and the services' `@Handles` decorator are typed from it, so a wrong payload, a wrong use of an
 * answer, or a handler that answers something else does not compile. Every subject of SUBJECTS is a
 * key here (checked below); a new subject is added to both.
 */
export interface RpcMap {
  [SUBJECTS.identity.health]: { request: EmptyMessage; response: ServiceHealth };
  [SUBJECTS.identity.userCreate]: { request: CreateUserMessage; response: AuthResult };
  [SUBJECTS.identity.userSignin]: { request: SignInMessage; response: SignInResult };
  [SUBJECTS.identity.userMe]: { request: UserIdMessage; response: Profile };
  [SUBJECTS.identity.userUpdate]: { request: UpdateProfileMessage; response: Profile };
  [SUBJECTS.identity.userPublic]: { request: PublicProfileMessage; response: PublicProfile };
  [SUBJECTS.identity.sessionVerify]: { request: TokenMessage; response: SessionInfo };
  [SUBJECTS.identity.sessionEnd]: { request: TokenMessage; response: LogoutResult };
  [SUBJECTS.identity.contactCreate]: { request: ContactMessage; response: Done & { id: string } };
  [SUBJECTS.identity.verificationRequest]: { request: RequestVerificationMessage; response: Done & { sent: boolean } };
  [SUBJECTS.identity.verificationConfirm]: { request: VerifyEmailDto; response: Done };
  [SUBJECTS.identity.resetRequest]: { request: ResetSetupDto; response: Done };
  [SUBJECTS.identity.resetConfirm]: { request: ResetPasswordDto; response: Done };
  [SUBJECTS.identity.resetCheck]: { request: ResetCheckDto; response: Done };
  [SUBJECTS.identity.codeCreate]: { request: CreateCodeMessage; response: CodeView };
  [SUBJECTS.identity.codeExchange]: { request: ExchangeCodeMessage; response: AuthResult };
  [SUBJECTS.identity.oidcList]: { request: EmptyMessage; response: OidcProvidersResult };
  [SUBJECTS.identity.oidcAuthorize]: { request: OidcAuthorizeMessage; response: OidcAuthorizeResult };
  [SUBJECTS.identity.oidcExchange]: { request: OidcExchangeMessage; response: OidcExchangeResult };
  [SUBJECTS.identity.oauthPayloadUpsert]: { request: UpsertOAuthPayloadMessage; response: Done };
  [SUBJECTS.identity.oauthPayloadFind]: { request: OAuthPayloadMessage; response: OAuthPayloadResult };
  [SUBJECTS.identity.oauthPayloadFindByUid]: { request: OAuthUidMessage; response: OAuthPayloadResult };
  [SUBJECTS.identity.oauthPayloadConsume]: { request: OAuthPayloadMessage; response: Done };
  [SUBJECTS.identity.oauthPayloadDestroy]: { request: OAuthPayloadMessage; response: Done };
  [SUBJECTS.identity.oauthGrantRevoke]: { request: OAuthGrantMessage; response: Done };
  [SUBJECTS.identity.oauthClientGet]: { request: OAuthClientMessage; response: { client: OAuthClientMetadata | null } };
  [SUBJECTS.identity.oauthAppCreate]: { request: CreateOAuthAppMessage; response: OAuthAppCreated };
  [SUBJECTS.identity.oauthAppList]: { request: UserIdMessage; response: OAuthAppList };
  [SUBJECTS.identity.oauthAppDelete]: { request: OAuthAppMessage; response: OAuthGrantsEnded };
  [SUBJECTS.identity.oauthAppUpdate]: { request: UpdateOAuthAppMessage; response: OAuthAppUpdated };
  [SUBJECTS.identity.oauthAppSecret]: { request: OAuthAppMessage; response: OAuthAppCreated };
  [SUBJECTS.identity.oauthConsentList]: { request: UserIdMessage; response: OAuthConsentList };
  [SUBJECTS.identity.oauthConsentWithdraw]: { request: OAuthConsentMessage; response: OAuthGrantsEnded };
  [SUBJECTS.commerce.health]: { request: EmptyMessage; response: ServiceHealth };
  [SUBJECTS.identity.mailSend]: { request: SendMailMessage; response: Done };
  [SUBJECTS.identity.userFindByEmail]: { request: FindByEmailMessage; response: { userId: string | null } };
  [SUBJECTS.commerce.serviceList]: { request: UserServicesMessage; response: ServiceView[] };
  [SUBJECTS.commerce.serviceSave]: { request: SaveServiceMessage; response: ServiceView };
  [SUBJECTS.commerce.accountValidate]: { request: ValidateAccountDto; response: AccountValidation };
  [SUBJECTS.commerce.productList]: { request: ListProductsMessage; response: ProductView[] };
  [SUBJECTS.commerce.productGet]: { request: GetProductMessage; response: ProductView };
  [SUBJECTS.commerce.productSave]: { request: SaveProductMessage; response: ProductView };
  [SUBJECTS.commerce.productDelete]: { request: DeleteProductMessage; response: Done & { deleted: boolean } };
  [SUBJECTS.commerce.productImageStore]: { request: StoreProductImageMessage; response: ProductView };
  [SUBJECTS.commerce.productImageDelete]: { request: DeleteProductImageMessage; response: ProductView };
  [SUBJECTS.commerce.productImageGet]: { request: GetProductImageMessage; response: ProductImageData };
  [SUBJECTS.commerce.storefrontGet]: { request: StorefrontMessage; response: StorefrontView };
  [SUBJECTS.commerce.shopResolve]: { request: ResolveShopMessage; response: ShopAddress };
  [SUBJECTS.commerce.orderCreate]: { request: CreateOrderMessage; response: OrderView };
  [SUBJECTS.commerce.orderGet]: { request: OrderMessage; response: OrderView };
  [SUBJECTS.commerce.orderList]: { request: ListOrdersMessage; response: OrderList };
  [SUBJECTS.commerce.orderPay]: { request: PayOrderMessage; response: PaymentStart };
  [SUBJECTS.commerce.orderComplete]: { request: CompleteOrderMessage; response: OrderView };
  [SUBJECTS.commerce.orderCancel]: { request: OrderMessage; response: OrderView };
  [SUBJECTS.commerce.orderRefund]: { request: RefundOrderMessage; response: OrderView };
  [SUBJECTS.commerce.orderReply]: { request: ReplyMessage; response: OrderView };
  [SUBJECTS.commerce.fulfillmentGet]: { request: OrderMessage; response: FulfillmentView };
  [SUBJECTS.commerce.fulfillmentComplete]: { request: FulfilMessage; response: OrderView };
  [SUBJECTS.commerce.sellerOverview]: { request: SellerOverviewMessage; response: SellerOverviewView };
  [SUBJECTS.commerce.sellerOrders]: { request: SellerOrdersMessage; response: SellerOrderList };
  [SUBJECTS.commerce.sellerSeen]: { request: SellerSeenMessage; response: { seenAt: string } };
  [SUBJECTS.commerce.webhookStripe]: { request: StripeWebhookMessage; response: Done & { applied: boolean } };
  [SUBJECTS.commerce.sandboxGet]: { request: SandboxSessionMessage; response: SandboxSessionView };
  [SUBJECTS.commerce.sandboxPay]: { request: SandboxPayMessage; response: SandboxSessionView };
  [SUBJECTS.commerce.sandboxAuthenticate]: { request: SandboxAuthenticateMessage; response: SandboxSessionView };
  [SUBJECTS.commerce.sandboxCancel]: { request: SandboxSessionMessage; response: SandboxSessionView };
  [SUBJECTS.commerce.requestCreate]: { request: CreateRequestMessage; response: PaymentRequestView };
  [SUBJECTS.commerce.requestGet]: { request: RequestMessage; response: PaymentRequestView };
  [SUBJECTS.commerce.requestList]: { request: ListRequestsMessage; response: PaymentRequestList };
  [SUBJECTS.commerce.requestAccept]: { request: AcceptRequestMessage; response: { request: PaymentRequestView; order: OrderView } };
  [SUBJECTS.commerce.requestDecline]: { request: DeclineRequestMessage; response: PaymentRequestView };
  [SUBJECTS.commerce.requestCancel]: { request: RequestMessage; response: PaymentRequestView };
  [SUBJECTS.commerce.timelineList]: { request: TimelineQueryMessage; response: TimelinePage };
  [SUBJECTS.commerce.timelineGet]: { request: TimelineEventMessage; response: TimelineEvent };
  [SUBJECTS.commerce.planCreate]: { request: CreatePlanMessage; response: PlanView };
  [SUBJECTS.commerce.planList]: { request: UserIdMessage; response: PlanList };
  [SUBJECTS.commerce.planGet]: { request: PlanMessage; response: PlanView };
  [SUBJECTS.commerce.planCancel]: { request: PlanMessage; response: PlanView };
  [SUBJECTS.commerce.methodSetup]: { request: SetupPaymentMethodMessage; response: PaymentSetupView };
  [SUBJECTS.commerce.methodComplete]: { request: CompleteSetupMessage; response: PaymentInstrumentView };
  [SUBJECTS.commerce.methodList]: { request: UserIdMessage; response: PaymentInstrumentList };
  [SUBJECTS.commerce.methodDefault]: { request: PaymentMethodMessage; response: PaymentInstrumentView };
  [SUBJECTS.commerce.methodDelete]: { request: PaymentMethodMessage; response: Done };
  [SUBJECTS.terminals.health]: { request: EmptyMessage; response: ServiceHealth };
  [SUBJECTS.terminals.terminalRegister]: { request: RegisterTerminalMessage; response: TerminalRegistration };
  [SUBJECTS.terminals.terminalList]: { request: UserIdMessage; response: TerminalList };
  [SUBJECTS.terminals.terminalGet]: { request: TerminalMessage; response: TerminalView };
  [SUBJECTS.terminals.terminalUpdate]: { request: UpdateTerminalMessage; response: TerminalView };
  [SUBJECTS.terminals.terminalRemove]: { request: TerminalMessage; response: Done };
  [SUBJECTS.terminals.tokenVerify]: { request: TerminalTokenMessage; response: TerminalCallerView };
  [SUBJECTS.terminals.grantsEnded]: { request: GrantsEndedMessage; response: Done & { removed: number } };
  [SUBJECTS.terminals.grantList]: { request: UserIdMessage; response: { grantIds: string[] } };
  [SUBJECTS.terminals.subscriptionSave]: { request: SaveSubscriptionMessage; response: TerminalView };
  [SUBJECTS.terminals.subscriptionRemove]: { request: TerminalMessage; response: TerminalView };
  [SUBJECTS.terminals.shareSend]: { request: SendShareMessage; response: ShareView };
  [SUBJECTS.terminals.shareList]: { request: ListSharesMessage; response: ShareList };
  [SUBJECTS.terminals.shareRemove]: { request: ShareMessage; response: Done };
  [SUBJECTS.terminals.pushKey]: { request: EmptyMessage; response: { publicKey: string } };
  [SUBJECTS.terminals.passSave]: { request: SavePassMessage; response: PassSaved };
  [SUBJECTS.terminals.passGet]: { request: PassMessage; response: PassView };
  [SUBJECTS.terminals.passList]: { request: ListPassesMessage; response: PassList };
  [SUBJECTS.terminals.passDelete]: { request: PassMessage; response: Done };
  [SUBJECTS.terminals.passImageStore]: { request: StorePassImageMessage; response: PassImageRef };
  [SUBJECTS.terminals.passImageGet]: { request: PassImageMessage; response: PassImageData };
  [SUBJECTS.terminals.passGoogle]: { request: PassMessage; response: PassGoogleView };
  [SUBJECTS.terminals.passApple]: { request: PassMessage; response: PassAppleData };
  [SUBJECTS.terminals.walletConfig]: { request: EmptyMessage; response: WalletConfigView };
  [SUBJECTS.conversion.health]: { request: EmptyMessage; response: ServiceHealth };
  [SUBJECTS.conversion.jobCreate]: { request: CreateConversionJobMessage; response: ConversionJobView };
  [SUBJECTS.conversion.jobGet]: { request: OwnedJobMessage; response: ConversionJobView };
  [SUBJECTS.conversion.jobList]: { request: ListJobsMessage; response: ConversionJobList };
  [SUBJECTS.conversion.engines]: { request: EmptyMessage; response: EngineStatus };
  [SUBJECTS.conversion.jobDelete]: { request: OwnedJobMessage; response: Done & { state: 'cancelled' | 'deleted' } };
  [SUBJECTS.conversion.fileCreate]: { request: CreateSavedFileMessage; response: { file: SavedFileView; upload: UploadTicket } };
  [SUBJECTS.conversion.fileComplete]: { request: OwnedFileMessage; response: SavedFileView };
  [SUBJECTS.conversion.fileList]: { request: ListFilesMessage; response: SavedFileList };
  [SUBJECTS.conversion.fileDownload]: { request: OwnedFileMessage; response: DownloadTicket };
  [SUBJECTS.conversion.fileDelete]: { request: OwnedFileMessage; response: Done };
  [SUBJECTS.conversion.fileAbandon]: { request: OwnedFileMessage; response: Done };
  [SUBJECTS.conversion.fileUploadBegin]: { request: FileUploadBeginMessage; response: Done };
  [SUBJECTS.conversion.fileUploadEnd]: { request: FileUploadEndMessage; response: Done };
}

/** The one map from each event subject (published to every subscriber, no reply) to its payload. */
export interface EventMap {
  [SUBJECTS.identity.sessionRevoked]: SessionRevokedEvent;
  [SUBJECTS.identity.userChanged]: UserChangedEvent;
  [SUBJECTS.conversion.jobFinished]: JobFinishedEvent;
}

export type EventSubject = keyof EventMap;

export type RpcSubject = keyof RpcMap;
/** The payload a subject's handler receives (its fields; the service validates it with the same class). */
export type RpcRequest<S extends RpcSubject> = RpcMap[S]['request'];
export type RpcResponse<S extends RpcSubject> = RpcMap[S]['response'];

/** Every value of SUBJECTS. */
type SubjectValue = { [K in keyof typeof SUBJECTS]: (typeof SUBJECTS)[K][keyof (typeof SUBJECTS)[K]] }[keyof typeof SUBJECTS];
/** Fails to compile when a subject of SUBJECTS is in neither map (or a map has one SUBJECTS lacks). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const RPC_MAP_COVERS_SUBJECTS: Same<SubjectValue, RpcSubject | EventSubject> = true;
