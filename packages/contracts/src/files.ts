/**
 * Messages of the upload anti-virus check (RELIABILITY #30). The spec has no words for these; they
 * are our choice, kept here so the server and the web say the same thing.
 */
export const FILE_SCAN_MESSAGES = {
  /** 400 on the `file` field: the scanner found a signature; nothing was stored. */
  infected: 'The file was rejected by the virus scan.',
  /** 503: the scanner could not give a verdict (fail closed); nothing was stored. */
  scannerUnavailable: 'The file could not be checked for viruses. Please try again shortly.',
} as const;
