/**
 * Terminals (issue 18) through the typed client. The calls a terminal makes for itself take its
 * terminal token instead of the user's session (docs/api.md#terminals-and-web-push).
 */
import type { ShareContentType, TerminalPlatform } from '@tinkerdesk/contracts/web';
import { bearer, unwrap, v1 } from '../../shared/api';

export const registerTerminal = (
  token: string,
  body: {
    label: string;
    send: boolean;
    receive: boolean;
    active: boolean;
    details: Record<string, string>;
    platform: TerminalPlatform;
    capabilities: string[];
    remote: boolean;
  },
) => unwrap(v1.POST('/v1/terminals', { body, headers: bearer(token) }));

export const listTerminals = (token: string) => unwrap(v1.GET('/v1/terminals', { headers: bearer(token) }));

export const updateTerminal = (
  token: string,
  id: string,
  body: { label?: string; send?: boolean; receive?: boolean; active?: boolean; destination?: string | null },
) => unwrap(v1.POST('/v1/terminals/{id}', { params: { path: { id } }, body, headers: bearer(token) }));

export const removeTerminal = (token: string, id: string) =>
  unwrap(v1.DELETE('/v1/terminals/{id}', { params: { path: { id } }, headers: bearer(token) }));

export const saveSubscription = (token: string, id: string, subscription: PushSubscriptionJSON) =>
  unwrap(
    v1.POST('/v1/terminals/{id}/subscription', {
      params: { path: { id } },
      body: {
        endpoint: subscription.endpoint ?? '',
        expirationTime: subscription.expirationTime ?? null,
        keys: { p256dh: subscription.keys?.p256dh ?? '', auth: subscription.keys?.auth ?? '' },
      },
      headers: bearer(token),
    }),
  );

export const removeSubscription = (token: string, id: string) =>
  unwrap(v1.DELETE('/v1/terminals/{id}/subscription', { params: { path: { id } }, headers: bearer(token) }));

export const shareTo = (token: string, terminalId: string, body: { contentType: ShareContentType; content: string; description: string }) =>
  unwrap(v1.POST('/v1/terminals/{terminalId}/share', { params: { path: { terminalId } }, body, headers: bearer(token) }));

export const listInbox = (token: string, id: string, offset: number, limit: number) =>
  unwrap(v1.GET('/v1/terminals/{id}/inbox', { params: { path: { id }, query: { offset, limit } }, headers: bearer(token) }));

export const deleteShare = (token: string, id: string, shareId: string) =>
  unwrap(v1.DELETE('/v1/terminals/{id}/inbox/{shareId}', { params: { path: { id, shareId } }, headers: bearer(token) }));

export const getPushKey = () => unwrap(v1.GET('/v1/push/key'));
