import { jsonToYaml, yamlToJson, type JsonIndent } from '@tinkerdesk/tools/yaml';
import { readTextFile } from '../../shared/ui/read-text-file';

export type Direction = 'yaml-json' | 'json-yaml';

export interface YamlJob {
  direction: Direction;
  /** The text, or a large file of it (read in the worker). */
  source: string | File;
  jsonIndent: JsonIndent;
  yamlIndent: 2 | 4;
  /** JSON to YAML: a top-level array becomes a stream of documents. */
  documents: boolean;
  /** YAML to JSON: merge << keys. */
  merge: boolean;
}

export interface YamlResult {
  text: string;
  /** YAML to JSON: how many documents the stream held. */
  documents?: number;
}

function convert(job: YamlJob, text: string): YamlResult {
  if (job.direction === 'yaml-json') {
    const { json, documents } = yamlToJson(text, { indent: job.jsonIndent, merge: job.merge });
    return { text: json, documents };
  }
  return { text: jsonToYaml(text, { indent: job.yamlIndent, documents: job.documents }) };
}

/** On the page, for text below the worker threshold. */
export function convertText(job: YamlJob): YamlResult {
  if (typeof job.source !== 'string') throw new Error('Files are converted in the worker');
  return convert(job, job.source);
}

/** In the worker: text or a file. */
export async function convertInWorker(job: YamlJob): Promise<YamlResult> {
  return convert(job, typeof job.source === 'string' ? job.source : await readTextFile(job.source));
}

/** Text from this size (UTF-16 code units), and files from this size (bytes), are converted in a worker. */
export const WORKER_THRESHOLD = 100_000;
