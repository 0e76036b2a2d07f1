import { TARGET_FORMATS } from '@tinkerdesk/contracts/web';

export function targetLabel(id: string): string {
  return TARGET_FORMATS[id]?.label ?? id.toUpperCase();
}
