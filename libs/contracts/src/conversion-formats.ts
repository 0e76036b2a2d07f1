/**
 * What the conversion service can make of what (GET /v1/convert/formats, the converter page, and the
 * check of every job): each source format with the targets it can become. Browser-safe.
 */

export type FormatKind = 'image' | 'document' | 'spreadsheet' | 'presentation' | 'pdf' | 'web';

export interface SourceFormat {
  /** The format's id, also the `from` of a job (`docx`, `png`, `url`...). */
  id: string;
  label: string;
  kind: FormatKind;
  /** File name extensions that mean this format (lower case, without the dot). */
  extensions: string[];
  /** Media types that mean this format. */
  mediaTypes: string[];
  /** What it can become (target ids). */
  to: string[];
}

export interface TargetFormat {
  id: string;
  label: string;
  extension: string;
  mediaType: string;
}

const IMAGE_OUT = ['png', 'jpg', 'webp', 'avif', 'tiff', 'gif'];
const DOCUMENT_OUT = ['pdf', 'docx', 'odt', 'txt'];
const SPREADSHEET_OUT = ['pdf', 'xlsx', 'ods', 'csv'];
const PRESENTATION_OUT = ['pdf', 'pptx', 'odp'];

function source(id: string, label: string, kind: FormatKind, extensions: string[], mediaTypes: string[], to: string[]): SourceFormat {
  return { id, label, kind, extensions, mediaTypes, to: to.filter((t) => t !== id) };
}

export const SOURCE_FORMATS: readonly SourceFormat[] = [
  source('png', 'PNG image', 'image', ['png'], ['image/png'], IMAGE_OUT),
  source('jpg', 'JPEG image', 'image', ['jpg', 'jpeg', 'jfif'], ['image/jpeg'], IMAGE_OUT),
  source('webp', 'WebP image', 'image', ['webp'], ['image/webp'], IMAGE_OUT),
  source('avif', 'AVIF image', 'image', ['avif'], ['image/avif'], IMAGE_OUT),
  source('tiff', 'TIFF image', 'image', ['tif', 'tiff'], ['image/tiff'], IMAGE_OUT),
  source('gif', 'GIF image (animation kept)', 'image', ['gif'], ['image/gif'], IMAGE_OUT),
  source('heif', 'HEIF image (where libvips reads it)', 'image', ['heif', 'heic'], ['image/heif', 'image/heic'], IMAGE_OUT),
  source(
    'docx',
    'Word document',
    'document',
    ['docx'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    DOCUMENT_OUT,
  ),
  source('doc', 'Word 97–2003 document', 'document', ['doc'], ['application/msword'], DOCUMENT_OUT),
  source('odt', 'OpenDocument text', 'document', ['odt'], ['application/vnd.oasis.opendocument.text'], DOCUMENT_OUT),
  source('rtf', 'Rich Text Format', 'document', ['rtf'], ['application/rtf', 'text/rtf'], DOCUMENT_OUT),
  source('txt', 'Plain text', 'document', ['txt', 'text'], ['text/plain'], DOCUMENT_OUT),
  source('html', 'HTML document', 'document', ['html', 'htm'], ['text/html'], DOCUMENT_OUT),
  source(
    'xlsx',
    'Excel workbook',
    'spreadsheet',
    ['xlsx'],
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    SPREADSHEET_OUT,
  ),
  source('xls', 'Excel 97–2003 workbook', 'spreadsheet', ['xls'], ['application/vnd.ms-excel'], SPREADSHEET_OUT),
  source('ods', 'OpenDocument spreadsheet', 'spreadsheet', ['ods'], ['application/vnd.oasis.opendocument.spreadsheet'], SPREADSHEET_OUT),
  source('csv', 'Comma-separated values', 'spreadsheet', ['csv'], ['text/csv'], SPREADSHEET_OUT),
  source(
    'pptx',
    'PowerPoint presentation',
    'presentation',
    ['pptx'],
    ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    PRESENTATION_OUT,
  ),
  source('ppt', 'PowerPoint 97–2003 presentation', 'presentation', ['ppt'], ['application/vnd.ms-powerpoint'], PRESENTATION_OUT),
  source(
    'odp',
    'OpenDocument presentation',
    'presentation',
    ['odp'],
    ['application/vnd.oasis.opendocument.presentation'],
    PRESENTATION_OUT,
  ),
  source('pdf', 'PDF document (pages to images)', 'pdf', ['pdf'], ['application/pdf'], ['png', 'jpg']),
  source('url', 'Web page (a URL)', 'web', [], [], ['pdf', 'png']),
];

export const TARGET_FORMATS: Readonly<Record<string, TargetFormat>> = Object.fromEntries(
  (
    [
      ['png', 'PNG image', 'png', 'image/png'],
      ['jpg', 'JPEG image', 'jpg', 'image/jpeg'],
      ['webp', 'WebP image', 'webp', 'image/webp'],
      ['avif', 'AVIF image', 'avif', 'image/avif'],
      ['tiff', 'TIFF image', 'tiff', 'image/tiff'],
      ['gif', 'GIF image', 'gif', 'image/gif'],
      ['pdf', 'PDF document', 'pdf', 'application/pdf'],
      ['docx', 'Word document', 'docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['odt', 'OpenDocument text', 'odt', 'application/vnd.oasis.opendocument.text'],
      ['txt', 'Plain text', 'txt', 'text/plain'],
      ['xlsx', 'Excel workbook', 'xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['ods', 'OpenDocument spreadsheet', 'ods', 'application/vnd.oasis.opendocument.spreadsheet'],
      ['csv', 'Comma-separated values', 'csv', 'text/csv'],
      ['pptx', 'PowerPoint presentation', 'pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
      ['odp', 'OpenDocument presentation', 'odp', 'application/vnd.oasis.opendocument.presentation'],
    ] as const
  ).map(([id, label, extension, mediaType]) => [id, { id, label, extension, mediaType }]),
);

const BY_ID = new Map(SOURCE_FORMATS.map((f) => [f.id, f]));

export function sourceFormat(id: string): SourceFormat | undefined {
  return BY_ID.get(id.toLowerCase());
}

/**
 * The source format of a file: by its extension first (what the user sees), then by its media type.
 * `jpeg` and `jpg` are one format; undefined when neither is known.
 */
export function detectSourceFormat(filename: string, mediaType?: string): SourceFormat | undefined {
  const ext = /\.([A-Za-z0-9]{1,5})$/.exec(filename)?.[1]?.toLowerCase();
  if (ext) {
    const byExt = SOURCE_FORMATS.find((f) => f.extensions.includes(ext));
    if (byExt) return byExt;
  }
  const essence = mediaType?.split(';')[0]?.trim().toLowerCase();
  return essence ? SOURCE_FORMATS.find((f) => f.mediaTypes.includes(essence)) : undefined;
}

/** Undefined when `from` can become `to`; otherwise the sentence that says what `from` can become. */
export function pairProblem(from: SourceFormat, to: string): string | undefined {
  const target = to.toLowerCase() === 'jpeg' ? 'jpg' : to.toLowerCase();
  if (from.to.includes(target)) return undefined;
  const list = from.to.length > 1 ? `${from.to.slice(0, -1).join(', ')} or ${from.to.at(-1)}` : (from.to[0] ?? 'nothing');
  return `a ${from.label} (${from.id}) can become ${list}, not ${to}`;
}
