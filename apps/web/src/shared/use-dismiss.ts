import { useEffect, type RefObject } from 'react';

/**
 * Closes a pop-up (drop-down, panel) on a pointer press outside `root`, on Escape (which returns
 * focus to the button that opened it) and when focus leaves it (Tab past its last link). The click
 * that closes it does nothing else: it is not passed on to whatever lies beneath (a link under the
 * dimmed page would otherwise be followed).
 */
export function useDismiss(
  open: boolean,
  root: RefObject<HTMLElement | null>,
  button: RefObject<HTMLElement | null>,
  close: () => void,
): void {
  useEffect(() => {
    if (!open) return;
    let swallowUntil = 0;
    const onPointer = (event: PointerEvent) => {
      if (!root.current || root.current.contains(event.target as Node)) return;
      swallowUntil = event.timeStamp + 1500;
      document.addEventListener('click', onClick, { capture: true, once: true });
      close();
    };
    // The click of the press that closed the pop-up (capture phase, before React and the browser act on it).
    const onClick = (event: MouseEvent) => {
      if (event.timeStamp > swallowUntil) return;
      event.preventDefault();
      event.stopPropagation();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        close();
        button.current?.focus();
      }
    };
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget as Node | null;
      if (next && root.current && !root.current.contains(next)) close();
    };
    const element = root.current;
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    element?.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
      element?.removeEventListener('focusout', onFocusOut);
    };
  }, [open, root, button, close]);
}
