import { HttpError } from '@dart/client';
import { SUPPORT_FILE_TYPES, SUPPORT_LIMITS, SUPPORT_MESSAGES, firstErrorMessage } from '@dart/contracts';

/** Spec §8: a failed ticket shows the server's message, or 'Error creating intercom ticket'. */
export function ticketErrorMessage(error: unknown): string {
  return error instanceof HttpError && error.body.message ? firstErrorMessage(error.body) : SUPPORT_MESSAGES.ticketError;
}

/** Spec §8: a failed upload shows the server's message, or 'Error uploading file'. */
export function uploadErrorMessage(error: unknown): string {
  return error instanceof HttpError && error.body.message ? firstErrorMessage(error.body) : SUPPORT_MESSAGES.uploadError;
}

/** The server's attachment rules, checked before uploading (same messages): at most five files of 10 MB of the listed types. */
export function attachmentsError(files: readonly File[]): string | null {
  if (files.length > SUPPORT_LIMITS.attachmentsMax) return SUPPORT_MESSAGES.tooManyAttachments;
  for (const file of files) {
    if (file.size === 0) return SUPPORT_MESSAGES.fileEmpty;
    if (file.size > SUPPORT_LIMITS.fileMaxBytes) return SUPPORT_MESSAGES.fileTooLarge;
    if (!(SUPPORT_FILE_TYPES as readonly string[]).includes(file.type)) return SUPPORT_MESSAGES.fileTypeNotAllowed;
  }
  return null;
}
