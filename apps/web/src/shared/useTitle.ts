import { useEffect } from 'react';

/** Sets document.title for the current page. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Tinkerdesk` : 'Tinkerdesk: online tools that run in your browser';
  }, [title]);
}
