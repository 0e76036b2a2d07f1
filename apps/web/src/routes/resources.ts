import { toolForPath } from '../tools/registry';
import type { ResourceLink } from '../tools/types';
import { PATHS } from './paths';

/**
 * Per-route resource links shown in the footer's "Resources" list. Tools declare theirs in their
 * meta.ts; other routes declare theirs here. A route without any shows no Resources list.
 */
const ROUTE_RESOURCES: Record<string, ResourceLink[]> = {
  [PATHS.help]: [
    { title: 'Tinkerdesk API reference', url: PATHS.apiDocs },
    { title: 'OpenAPI document', url: PATHS.openApi },
  ],
  [PATHS.security]: [
    {
      title: 'OWASP Application Security Verification Standard',
      url: 'https://owasp.org/www-project-application-security-verification-standard/',
    },
  ],
  [PATHS.hardware]: [{ title: 'Web Bluetooth (MDN)', url: 'https://developer.mozilla.org/en-US/docs/Web/API/Web_Bluetooth_API' }],
};

function normalise(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

export function resourcesFor(pathname: string): ResourceLink[] {
  const tool = toolForPath(pathname);
  if (tool) return tool.resources ?? [];
  const wanted = normalise(pathname);
  const key = Object.keys(ROUTE_RESOURCES).find((k) => normalise(k) === wanted);
  return key ? (ROUTE_RESOURCES[key] ?? []) : [];
}
