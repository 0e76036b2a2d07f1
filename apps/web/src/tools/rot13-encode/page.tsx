import type { ToolPageProps } from '../types';
import { Rot13Tool } from './Rot13Tool';

export default function Rot13EncodePage({ tool }: ToolPageProps) {
  return <Rot13Tool tool={tool} />;
}
