/** Saved files ("my files": cloud saves), browser-safe (no Nest, no class-validator). */

/** pending: a signed upload URL was handed out and the file has not been confirmed yet; stored: it is saved. */
export type SavedFileState = 'pending' | 'stored';

export interface SavedFileView {
  id: string;
  filename: string;
  mediaType: string;
  /** Bytes. */
  size: number;
  state: SavedFileState;
  created: string;
  modified: string;
}

/** GET /v1/files: the caller's stored files, newest first, and what they use of the quota. */
export interface SavedFileList {
  files: SavedFileView[];
  total: number;
  offset: number;
  limit: number;
  /** Bytes the caller's files take (stored and pending), and may take at most. */
  usedBytes: number;
  /** The part of usedBytes held by declared files not confirmed yet (dropped when not confirmed in time). */
  pendingBytes: number;
  quotaBytes: number;
}

/**
 * Where to PUT the file: a short-lived signed URL (S3 presigned, or this site's own signed storage).
 * Send exactly these headers and the declared number of bytes; 200 means it is stored.
 */
export interface UploadTicket {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expires: string;
}

/** A short-lived signed URL that downloads the file (private: only whoever holds the URL, until it expires). */
export interface DownloadTicket {
  url: string;
  expires: string;
}
