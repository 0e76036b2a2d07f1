import { useState, type ReactNode } from 'react';
import { readTextFile, TextFileError } from './read-text-file';
import { TextOrFileInput } from './TextOrFileInput';
import { formatCount } from './format';

export interface TextSource {
  text: string;
  setText: (text: string) => void;
  /** A file at or above the threshold, kept as a file for the worker to read. */
  file: File | null;
  openFile: (file: File | null) => void;
  readError: string;
}

/**
 * The input of a text converter: typed text, or a dropped file. A small file is loaded into the
 * field (to be edited); a large one stays a file, read and converted in the worker, so the page never
 * holds megabytes in a text field. Binary files are refused with a message.
 */
export function useTextSource(threshold: number): TextSource {
  const [text, setTextState] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [readError, setReadError] = useState('');
  const setText = (value: string) => {
    setTextState(value);
    setReadError('');
  };
  const openFile = (chosen: File | null) => {
    setReadError('');
    if (!chosen || chosen.size >= threshold) {
      setFile(chosen);
      return;
    }
    readTextFile(chosen).then(
      (content) => {
        setFile(null);
        setTextState(content);
      },
      (error: unknown) => setReadError(error instanceof TextFileError ? error.message : `Could not read ${chosen.name}.`),
    );
  };
  return { text, setText, file, openFile, readError };
}

/** The Input field (or the large file's card), its error under it, and the drop zone. */
export function ConverterInput({
  source,
  what,
  problem,
  problemAction,
  fileDetail = 'converted in the background',
}: {
  source: TextSource;
  /** Said on a large file's card. */
  fileDetail?: string;
  /** What the input is: "Markdown", "YAML" ... */
  what: string;
  /** The error to show (reading the file, or converting). */
  problem?: string;
  problemAction?: ReactNode;
}) {
  return (
    <TextOrFileInput
      text={source.text}
      onText={source.setText}
      file={source.file}
      onFile={source.openFile}
      placeholder={`Type or paste ${what}, or drop a file below`}
      info={source.text ? `${formatCount(source.text.length)} characters` : undefined}
      dropText={`Drop a ${what} file here or paste it`}
      fileDetail={fileDetail}
      below={
        problem ? (
          <p className="field-error" role="alert">
            <span>{problem}</span>
            {problemAction}
          </p>
        ) : null
      }
    />
  );
}
