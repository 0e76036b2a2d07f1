import { createContext, useContext } from 'react';

/**
 * True while a component renders into a page shell (the HTML the gateway sends before the app boots:
 * src/app/page-shells.tsx, src/app/shop-shell.tsx). A control whose action needs the app (a button that
 * opens a form) is inert there, so a click before the app has taken the page over waits for it instead
 * of being lost; links still work, as plain links.
 */
export const InShell = createContext(false);

export const useInShell = (): boolean => useContext(InShell);
