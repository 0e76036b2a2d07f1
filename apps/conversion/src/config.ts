import { commonSchema, databaseSchema, env, fileStoreSchema, redisSchema, savedFilesSchema } from '@tinkerdesk/nest-common';

/** The environment of the conversion listener and workers; nothing else in them reads process.env. */
export const schema = {
  ...commonSchema,
  ...databaseSchema,
  ...redisSchema,
  ...fileStoreSchema,
  ...savedFilesSchema,
  HEALTH_PORT: env.port(0),
  /** Jobs one worker process runs at once (LibreOffice and Chromium work one document at a time each). */
  WORKER_CONCURRENCY: env.int(2, 1, 64),
  /** Jobs waiting in the queue at most; past it, new jobs answer 429 QUEUE_FULL. */
  CONVERSION_QUEUE_LIMIT: env.int(200, 1, 100_000),
  /** Jobs one account may create per minute. */
  CONVERSION_JOBS_PER_MINUTE: env.int(30, 1, 100_000),
  /** Bytes one account may upload or fetch for conversion per day (2 GiB). */
  CONVERSION_BYTES_PER_DAY: env.int(2 * 1024 ** 3, 1024, 1024 ** 4),
  /** A job's deadline on a worker; past it, the work is killed and the job fails. */
  CONVERSION_JOB_TIMEOUT_MS: env.int(120_000, 1000, 3_600_000),
  /** How long a worker's lock on a job lasts without renewal: a dead worker's job is taken up by another after about this long. */
  CONVERSION_LOCK_MS: env.int(30_000, 1000, 600_000),
  /** Attempts of a job whose worker crashed or timed out, before it fails for good. */
  CONVERSION_ATTEMPTS: env.int(3, 1, 10),
  /**
   * How long a worker's announcement of its engines lasts without renewal (renewed every third of it):
   * a worker killed outright stops counting after this long, and a job only it could convert fails then.
   */
  ENGINE_ANNOUNCEMENT_TTL_MS: env.int(15_000, 1000, 600_000),
  /** warm: one soffice per worker through the UNO bridge; cold: libreoffice-convert per document; auto: warm where python3-uno is installed. */
  LIBREOFFICE_MODE: env.oneOf('auto', ['auto', 'warm', 'cold'] as const),
  /** A warm soffice is restarted after this many documents. */
  LIBREOFFICE_RESTART_AFTER: env.int(10, 1, 10_000),
  /** Debian's bubblewrap: LibreOffice runs only inside its sandbox; where it cannot run, document jobs fail. */
  SANDBOX_BWRAP: env.str('/usr/bin/bwrap'),
  /** LibreOffice's soffice; a worker without it announces no LibreOffice engine (document formats are then off). */
  SOFFICE_PATH: env.str('/usr/bin/soffice'),
  /** Chromium for web pages to PDF or PNG; a worker without it announces no Chromium engine. */
  CHROMIUM_PATH: env.str('/usr/bin/chromium'),
  /** Host names URL jobs may reach although they resolve inside the network (comma-separated). */
  FETCH_ALLOWED_HOSTS: env.str(''),
  /** Largest file a URL job fetches, in bytes (50 MiB). */
  FETCH_MAX_BYTES: env.int(50 * 1024 ** 2, 1024, 1024 ** 3),
  FETCH_TIMEOUT_MS: env.int(30_000, 500, 600_000),
};
