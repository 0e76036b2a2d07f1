import type { ToolPageProps } from '../types';
import { YamlJsonTool } from './YamlJsonTool';

export default function YamlJsonPage({ tool }: ToolPageProps) {
  return <YamlJsonTool tool={tool} direction="yaml-json" />;
}
