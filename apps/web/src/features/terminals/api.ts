/**
 * Terminals (issue 18) through the typed client. The calls a terminal makes for itself take its
 * terminal token instead of the user's session (docs/api.md#terminals-and-web-push).
 */
import type { ShareContentType, TerminalView } from '@tinkerdesk/contracts/web';
import { anonymous, bearer, unwrap, v1 } from '../../shared/api';

/** A new terminal: what its owner sees of it, less what the server decides (id, destination, subscription). */
export type TerminalRegistration = Pick<
  TerminalView,
  'label' | 'send' | 'receive' | 'active' | 'details' | 'platform' | 'capabilities' | 'remote'
>;

export const registerTerminal = (body: TerminalRegistration) => unwrap(v1.POST('/v1/terminals', { body }));

export const listTerminals = () => unwrap(v1.GET('/v1/terminals'));

export const updateTerminal = (
  id: string,
  body: { label?: string; send?: boolean; receive?: boolean; active?: boolean; destination?: string | null },
) => unwrap(v1.POST('/v1/terminals/{id}', { params: { path: { id } }, body }));

export const removeTerminal = (id: string) => unwrap(v1.DELETE('/v1/terminals/{id}', { params: { path: { id } } }));

/** Made by the terminal itself: its terminal token, not the user's session. */
export const saveSubscription = (terminalToken: string, id: string, subscription: PushSubscriptionJSON) =>
  unwrap(
    anonymous.POST('/v1/terminals/{id}/subscription', {
      params: { path: { id } },
      body: {
        endpoint: subscription.endpoint ?? '',
        expirationTime: subscription.expirationTime ?? null,
        keys: { p256dh: subscription.keys?.p256dh ?? '', auth: subscription.keys?.auth ?? '' },
      },
      headers: bearer(terminalToken),
    }),
  );

export const removeSubscription = (terminalToken: string, id: string) =>
  unwrap(anonymous.DELETE('/v1/terminals/{id}/subscription', { params: { path: { id } }, headers: bearer(terminalToken) }));

/** Sends to a terminal; with `asTerminal` (a sending terminal's token) the share names that terminal as its sender. */
export const shareTo = (
  terminalId: string,
  body: { contentType: ShareContentType; content: string; description: string },
  asTerminal?: string,
) =>
  unwrap(
    v1.POST('/v1/terminals/{terminalId}/share', {
      params: { path: { terminalId } },
      body,
      ...(asTerminal ? { headers: { authorization: `Bearer ${asTerminal}` } } : {}),
    }),
  );

export const listInbox = (id: string, offset: number, limit: number) =>
  unwrap(v1.GET('/v1/terminals/{id}/inbox', { params: { path: { id }, query: { offset, limit } } }));

export const deleteShare = (id: string, shareId: string) =>
  unwrap(v1.DELETE('/v1/terminals/{id}/inbox/{shareId}', { params: { path: { id, shareId } } }));

export const getPushKey = () => unwrap(anonymous.GET('/v1/push/key'));
