import type { ReactNode } from 'react';
import { isBuilt, type Capability } from './capabilities';

interface ComingProps {
  what: Capability;
  children: ReactNode;
  /** The element that holds the words (default: inline, no element of its own once built). */
  as?: 'span' | 'div' | 'li' | 'section';
  className?: string;
}

/**
 * Words about a capability: shown as they are once it is built; until then with a plain "Coming soon"
 * mark (and `data-coming`, which the claims test looks for).
 */
export function Coming({ what, children, as: Tag = 'span', className }: ComingProps) {
  if (isBuilt(what)) return Tag === 'span' && !className ? <>{children}</> : <Tag className={className}>{children}</Tag>;
  return (
    <Tag className={className ? `${className} coming` : 'coming'} data-coming={what}>
      {children} <span className="badge badge-coming">Coming soon</span>
    </Tag>
  );
}
