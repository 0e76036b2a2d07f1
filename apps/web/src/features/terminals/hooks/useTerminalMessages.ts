import { useEffect } from 'react';
import { localTerminal, subscribePush } from '../this-browser';

/** The window event that tells open terminal views a share arrived (from the service worker). */
export const SHARE_ARRIVED_EVENT = 'tinkerdesk:share-arrived';

/**
 * What the service worker tells open pages: a share arrived (the beeper beeps when that setting is
 * on, and inboxes on screen refresh), or the push subscription changed (this browser subscribes again).
 */
export function useTerminalMessages(): void {
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    const onMessage = (event: MessageEvent) => {
      const type = (event.data as { type?: string } | null)?.type;
      if (type === 'share') {
        // The beeper's code loads with the pages that connect one; before that there is none to beep.
        void import('../../../shared/hardware/connection').then(({ beepIfEnabled }) => beepIfEnabled('share'));
        window.dispatchEvent(new Event(SHARE_ARRIVED_EVENT));
      } else if (type === 'pushsubscriptionchange') {
        void localTerminal()
          .then((terminal) => (terminal ? subscribePush(terminal) : undefined))
          .catch((error: unknown) => console.warn('push not renewed', error));
      }
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    return () => navigator.serviceWorker.removeEventListener('message', onMessage);
  }, []);
}
