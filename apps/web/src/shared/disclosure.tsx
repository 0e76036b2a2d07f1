import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

/** What takes the focus when a panel opens: an element marked for it, else the first field. */
const FIRST_FIELD = '[data-autofocus], input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])';
/** Without a field: the panel's heading (made focusable), else its first control. */
const HEADING = 'h2, h3, h4';
const CONTROL = 'button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

/** Moves the focus into a panel that just opened (docs/web-app.md#inline-forms). */
export function focusInside(panel: HTMLElement): void {
  if (panel.contains(document.activeElement) && document.activeElement !== panel) return;
  const heading = panel.querySelector<HTMLElement>(HEADING);
  const target = panel.querySelector<HTMLElement>(FIRST_FIELD) ?? heading ?? panel.querySelector<HTMLElement>(CONTROL);
  if (target === heading && heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  (target ?? panel).focus();
}

/** Focuses the element with id `id`; a heading (not focusable by itself) is made focusable from script first. */
export function focusById(id: string): void {
  const target = document.getElementById(id);
  if (target && /^H[1-6]$/.test(target.tagName) && !target.hasAttribute('tabindex')) target.tabIndex = -1;
  target?.focus();
}

/**
 * Where the focus goes once the item at `index` of a list is gone (docs/web-app.md#inline-forms): the
 * same control of the next item, else of the one before, else the list's heading (`headingId`).
 */
export function afterRemoval(ids: readonly string[], index: number, headingId: string): string {
  return ids[index + 1] ?? ids[index - 1] ?? headingId;
}

/**
 * Closes on Escape: the innermost open panel or confirmation only (the key goes
 * no further, so the page's other panels and the All Tools panel stay as they are).
 */
export function closeOnEscape(event: KeyboardEvent, close: () => void): void {
  if (event.key !== 'Escape' || event.defaultPrevented) return;
  event.preventDefault();
  event.stopPropagation();
  close();
}

export interface Disclosure<K extends string> {
  /** What is open (a key such as a product's id, or 'open'), or null. */
  shown: K | null;
  /** Opens `key`; the focus returns to its opener (or to the element with id `returnTo`) when it closes. */
  open: (key: K, returnTo?: string) => void;
  /** Closes it and gives the focus back to what opened it (or to the element with id `focusId`: a refused field). */
  close: (focusId?: string) => void;
  /**
   * The opener's attributes: its id (the focus comes back to it), aria-expanded and aria-controls, a click
   * that opens, and Escape closing its panel while it is open (the opener is outside the panel).
   */
  opener: (key: K) => {
    id: string;
    'aria-expanded': boolean;
    'aria-controls'?: string;
    onClick: () => void;
    onKeyDown: (event: KeyboardEvent) => void;
  };
  /** The id `opener(key)` gives its button: where the focus goes after something is removed (`afterRemoval`). */
  openerId: (key: K) => string;
  /** The open panel's attributes: its id, and Escape closing it. */
  panel: { id: string; ref: (element: HTMLElement | null) => void; onKeyDown: (event: KeyboardEvent) => void };
}

/**
 * An inline form or confirmation that opens in the page (docs/web-app.md#inline-forms): opening moves the
 * focus to the panel's first field (else its heading, else its first control); closing it (Cancel,
 * Escape, a successful submit) returns the focus to the button that opened it, found again by its id
 * after the page is drawn again (an opener may be hidden while its panel is open).
 */
export function useDisclosure<K extends string = 'open'>(): Disclosure<K> {
  const base = useId();
  const [shown, setShown] = useState<K | null>(null);
  const returnTo = useRef<string | null>(null);
  const element = useRef<HTMLElement | null>(null);
  const returning = useRef(false);
  const openerId = useCallback((key: K) => `${base}opener-${key}`, [base]);
  const panelId = `${base}panel`;

  const open = useCallback(
    (key: K, from?: string) => {
      returnTo.current = from ?? openerId(key);
      setShown(key);
    },
    [openerId],
  );
  const close = useCallback((focusId?: string) => {
    if (typeof focusId === 'string') returnTo.current = focusId;
    returning.current = true;
    setShown(null);
  }, []);

  useEffect(() => {
    if (shown !== null && element.current) focusInside(element.current);
    if (shown === null && returning.current) {
      returning.current = false;
      if (returnTo.current) focusById(returnTo.current);
    }
  }, [shown]);

  const onKeyDown = useCallback((event: KeyboardEvent) => closeOnEscape(event, close), [close]);
  const ref = useCallback((node: HTMLElement | null) => {
    element.current = node;
  }, []);

  return {
    shown,
    open,
    close,
    opener: (key) => ({
      id: openerId(key),
      'aria-expanded': shown === key,
      ...(shown === key ? { 'aria-controls': panelId } : {}),
      onClick: () => (shown === key ? close() : open(key)),
      onKeyDown: (event) => {
        if (shown === key) closeOnEscape(event, close);
      },
    }),
    openerId,
    panel: { id: panelId, ref, onKeyDown },
  };
}

/** The frame of an open inline form: inner padding and a visible boundary (`.inline-panel` in styles.css). */
export function InlinePanel({ disclosure, children }: { disclosure: Pick<Disclosure<string>, 'panel'>; children: ReactNode }) {
  return (
    <div className="inline-panel" {...disclosure.panel}>
      {children}
    </div>
  );
}
