import { Rot13Tool } from '../rot13-encode/Rot13Tool';
import type { ToolPageProps } from '../types';

export default function Rot13DecodePage({ tool }: ToolPageProps) {
  return <Rot13Tool tool={tool} />;
}
