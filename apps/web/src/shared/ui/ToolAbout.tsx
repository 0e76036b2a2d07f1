import type { ReactNode } from 'react';
import './kit.css';

export interface Example {
  label: string;
  input: string;
}

/** The short explanation and examples below a tool; picking an example loads it into the tool. */
export function ToolAbout({
  children,
  examples,
  onExample,
}: {
  children: ReactNode;
  examples?: Example[];
  onExample?: (input: string) => void;
}) {
  return (
    <section className="tool-about" aria-labelledby="tool-about-heading">
      <h2 id="tool-about-heading">About this tool</h2>
      {children}
      {examples && examples.length > 0 && onExample ? (
        <>
          <h3>Examples</h3>
          <ul className="examples">
            {examples.map((example) => (
              <li key={example.label}>
                <button type="button" className="chip" onClick={() => onExample(example.input)}>
                  {example.label}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
