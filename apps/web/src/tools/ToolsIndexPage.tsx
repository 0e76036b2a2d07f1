import { Link } from 'react-router-dom';
import { CategoryIcon } from '../shared/icons';
import { Page } from '../shared/Page';
import { HistoryPanel } from '../shared/ui/HistoryPanel';
import { CATEGORY_BLURBS, categoryAnchor, TOOLS, toolsByCategory } from './registry';
import { ToolCard } from './ToolCard';

export function ToolsIndexPage() {
  const groups = toolsByCategory();
  return (
    <Page
      title="All tools"
      lead={`${TOOLS.length} tools. Most run in your browser, so your files and text stay on your device; the file converter uploads files to convert them on our servers and needs a free account.`}
      wide
    >
      <nav aria-label="Categories" className="chip-nav">
        <ul>
          {groups.map(({ category, tools }) => (
            <li key={category}>
              <Link to={`#${categoryAnchor(category)}`} className="chip">
                <CategoryIcon category={category} size={16} />
                {category} <span className="chip-count">{tools.length}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <HistoryPanel />
      {groups.map(({ category, tools }) => (
        <section key={category} className="tool-section" aria-labelledby={categoryAnchor(category)}>
          <h2 id={categoryAnchor(category)}>{category}</h2>
          <p className="section-blurb">{CATEGORY_BLURBS[category]}</p>
          <ul className="tool-grid">
            {tools.map((tool) => (
              <ToolCard key={tool.id} tool={tool} />
            ))}
          </ul>
        </section>
      ))}
    </Page>
  );
}
