import { Link } from 'react-router-dom';
import { CategoryIcon } from '../shared/icons';
import type { Tool } from './types';

export function ToolCard({ tool }: { tool: Tool }) {
  return (
    <li className="tool-card">
      <Link to={tool.path}>
        <span className="tool-card-head">
          <span className="tool-icon">
            <CategoryIcon category={tool.category} size={18} />
          </span>
          <span className="tool-card-name">{tool.name}</span>
        </span>
        <span className="tool-card-description">{tool.description}</span>
        {tool.page ? null : <span className="badge">Coming soon</span>}
      </Link>
    </li>
  );
}
