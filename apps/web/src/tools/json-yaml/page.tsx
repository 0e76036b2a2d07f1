import type { ToolPageProps } from '../types';
import { YamlJsonTool } from '../yaml-json/YamlJsonTool';

export default function JsonYamlPage({ tool }: ToolPageProps) {
  return <YamlJsonTool tool={tool} direction="json-yaml" />;
}
