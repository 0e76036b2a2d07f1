import { rot13 } from '@tinkerdesk/tools/rot13';
import { useMemo, useState } from 'react';
import { CopyButton, DownloadButton } from '../../shared/ui/actions';
import { TextPane } from '../../shared/ui/TextPane';
import { ToolAbout } from '../../shared/ui/ToolAbout';
import { useInputHistory } from '../../shared/ui/use-input-history';
import type { Tool } from '../types';

const EXAMPLES = [
  { label: 'A greeting', input: 'Hello, World!' },
  { label: 'A spoiler', input: 'Gur ohgyre qvq vg.' },
  { label: 'Mixed text', input: 'Zürich 2024: Why did the chicken cross the road? 🐔' },
];

/** ROT13 encode and decode are the same operation; both routes use this page. */
export function Rot13Tool({ tool }: { tool: Tool }) {
  const [input, setInput] = useState('');
  const output = useMemo(() => rot13(input), [input]);
  useInputHistory(tool.id, input);
  const verb = tool.id === 'rot13-decode' ? 'decoded' : 'encoded';

  return (
    <>
      <div className="tool-panes">
        <TextPane
          id="input"
          label="Input"
          value={input}
          onChange={setInput}
          placeholder="Type or paste text"
          actions={
            <button type="button" className="button button-small" onClick={() => setInput('')} disabled={!input}>
              Clear
            </button>
          }
        />
        <TextPane
          id="output"
          label="Output"
          value={output}
          readOnly
          actions={
            <>
              <CopyButton text={output} disabled={!output} />
              <DownloadButton data={output} filename={`rot13-${verb}.txt`} disabled={!output} />
              <button
                type="button"
                className="button button-small"
                onClick={() => setInput(output)}
                disabled={!output}
                title="Use the output as input"
              >
                Swap
              </button>
            </>
          }
        />
      </div>
      <ToolAbout examples={EXAMPLES} onExample={setInput}>
        <p>
          ROT13 replaces each letter A–Z with the letter 13 places further on in the alphabet, wrapping around, and keeps upper and lower
          case. Digits, punctuation, accented letters, other scripts and emoji stay exactly as they are. Because the alphabet has 26
          letters, applying ROT13 twice gives back the original: encoding and decoding are the same step.
        </p>
        <p>It hides spoilers and puzzle answers from a casual glance; it is not encryption. Everything runs in your browser.</p>
      </ToolAbout>
    </>
  );
}
