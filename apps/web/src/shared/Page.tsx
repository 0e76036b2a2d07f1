import type { ReactNode } from 'react';
import { useTitle } from './useTitle';

/** A page with its title (document and h1) and an optional lead paragraph. */
export function Page({ title, lead, children, wide }: { title: string; lead?: ReactNode; children?: ReactNode; wide?: boolean }) {
  useTitle(title);
  return (
    <article className={wide ? 'page page-wide' : 'page'}>
      <h1>{title}</h1>
      {lead ? <p className="lead">{lead}</p> : null}
      {children}
    </article>
  );
}
