import { type DynamicModule, Global, Module } from '@nestjs/common';
import { createLogger, type RpcClient } from '@tinkerdesk/nest-common';
import { GATEWAY_CONFIG, type GatewayConfig } from './config.js';
import { ConversionModule } from './conversion/conversion.module.js';
import { FilesModule } from './files/files.module.js';
import { OrdersController } from './commerce/orders.controller.js';
import { PaymentsController } from './commerce/payments.controller.js';
import { RequestsController, TimelineController } from './commerce/requests.controller.js';
import { PaymentMethodsController, PlansController } from './commerce/billing.controller.js';
import { TerminalsController } from './terminals/terminals.controller.js';
import { PassesController } from './passes/passes.controller.js';
import { OAuthController } from './oauth/oauth.controller.js';
import type { OAuthServer } from './oauth/oauth-provider.js';
import { OAUTH_SERVER, OAuthTokens } from './oauth/oauth-tokens.js';
import { ServicesController } from './commerce/services.controller.js';
import { ShopsController } from './commerce/shops.controller.js';
import { ProductImagesController } from './commerce/product-images.controller.js';
import { ReferenceController } from './reference/reference.controller.js';
import { Viewers } from './commerce/viewer.js';
import { BearerGuard, OptionalBearerGuard } from './auth/bearer.guard.js';
import { ContactController } from './contact/contact.controller.js';
import { Draining } from './health/draining.js';
import { HealthController } from './health/health.controller.js';
import { RateLimitInterceptor, RateLimits } from './http/rate-limit.js';
import { AccountController } from './users/account.controller.js';
import { CodesController } from './users/codes.controller.js';
import { FetchController } from './users/fetch.controller.js';
import { OidcController } from './users/oidc.controller.js';
import { UsersController } from './users/users.controller.js';
import { RpcModule } from './rpc.module.js';
import { SessionCache } from './auth/session-cache.js';
import { LiveController } from './live/live.controller.js';
import { LiveStreams } from './live/live-streams.js';
import { liveSlots } from './live/live-slots.js';
import { forgetWhileDisconnected } from './auth/ttl-cache.js';
import { ProfileCache } from './users/profile-cache.js';

@Global()
@Module({})
class ConfigModule {
  static with(config: GatewayConfig, oauth: OAuthServer): DynamicModule {
    // Global: the bearer guard (used by every module's routes) checks OAuth access tokens too.
    return {
      module: ConfigModule,
      providers: [{ provide: GATEWAY_CONFIG, useValue: config }, { provide: OAUTH_SERVER, useValue: oauth }, OAuthTokens],
      exports: [GATEWAY_CONFIG, OAUTH_SERVER, OAuthTokens],
    };
  }
}

@Module({})
export class AppModule {
  static register(config: GatewayConfig, rpc: RpcClient, oauth: OAuthServer): DynamicModule {
    const sessions = new SessionCache(config.SESSION_CACHE_TTL_MS);
    sessions.listen(rpc.connection, config.NATS_PREFIX);
    const profiles = new ProfileCache(config.PROFILE_CACHE_TTL_MS);
    profiles.listen(rpc.connection, config.NATS_PREFIX);
    forgetWhileDisconnected(rpc.connection, [sessions, profiles]);
    const live = new LiveStreams(
      rpc.connection,
      config.NATS_PREFIX,
      rpc,
      liveSlots(config),
      {
        heartbeatMs: config.LIVE_HEARTBEAT_MS,
        bufferBytes: config.LIVE_BUFFER_BYTES,
        recheckMs: config.LIVE_RECHECK_MS,
        openTimeoutMs: config.RPC_TIMEOUT_MS,
      },
      createLogger('gateway', config.LOG_LEVEL),
    );
    live.listen();
    return {
      module: AppModule,
      imports: [ConfigModule.with(config, oauth), RpcModule.withClient(rpc, sessions, profiles), ConversionModule, FilesModule],
      controllers: [
        HealthController,
        UsersController,
        AccountController,
        CodesController,
        OidcController,
        ContactController,
        FetchController,
        // Commerce (services, products, orders, payments): here, beside the rate limits they use.
        ServicesController,
        ShopsController,
        ProductImagesController,
        OrdersController,
        PaymentsController,
        RequestsController,
        PlansController,
        PaymentMethodsController,
        TerminalsController,
        PassesController,
        OAuthController,
        TimelineController,
        ReferenceController,
        LiveController,
      ],
      providers: [
        { provide: LiveStreams, useValue: live },
        Draining,
        BearerGuard,
        OptionalBearerGuard,
        Viewers,
        RateLimits,
        RateLimitInterceptor,
      ],
    };
  }
}
