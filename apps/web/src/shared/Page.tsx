import type { ReactNode } from 'react';
import { useTitle } from './useTitle';

/**
 * A page with its title (document and h1) and an optional lead paragraph; `documentTitle` when the
 * document's title says more than the h1 (a dashboard's section: "Selling · Account").
 */
export function Page({
  title,
  documentTitle,
  lead,
  children,
  wide,
}: {
  title: string;
  documentTitle?: string;
  lead?: ReactNode;
  children?: ReactNode;
  wide?: boolean;
}) {
  useTitle(documentTitle ?? title);
  return (
    <article className={wide ? 'page page-wide' : 'page'}>
      <h1>{title}</h1>
      {lead ? <p className="lead">{lead}</p> : null}
      {children}
    </article>
  );
}
