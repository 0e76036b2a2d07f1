/** What the page asks the barcode worker to draw, and what comes back. */
export interface RenderJob {
  bcid: string;
  text: string;
  /** Module size in pixels (PNG) and the SVG's scale. */
  scale: number;
  /** Bar height in millimetres, linear symbologies only. */
  height?: number;
  /** Quiet zone around the symbol, in modules. */
  margin: number;
  barColor: string;
  backgroundColor: string;
  includeText: boolean;
  ecLevel?: string;
  /** Extra BWIPP options (flags and name=value pairs), already checked. */
  extra: Record<string, string | boolean>;
}

export interface RenderResult {
  /** jobKey of the job drawn: the page offers downloads only when it matches what is on screen. */
  key: string;
  svg: string;
  png: Blob;
  width: number;
  height: number;
}

/** A job's identity, compared between the job on screen and the one a result was drawn for. */
export function jobKey(job: RenderJob): string {
  return JSON.stringify(job);
}
