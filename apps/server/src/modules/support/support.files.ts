/**
 * Attachment checks before anything is stored: an allowed mime type, not empty, within the size limit, and
 * bytes that look like the type they claim (a renamed executable is not a PDF). The virus scan runs in the
 * FileStore's `put` (lib/file-scanner.ts): an infected file is a 400 on `file` and is never written.
 */
import { SUPPORT_FILE_TYPES, SUPPORT_LIMITS, SUPPORT_MESSAGES } from '@dart/contracts';
import { AppError, fieldError } from '../../lib/errors';

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const isUtf8Text = (b: Buffer) => !b.includes(0) && Buffer.from(b.toString('utf8'), 'utf8').equals(b);
const startsWith = (b: Buffer, magic: Buffer) => b.subarray(0, magic.length).equals(magic);

/** What the first bytes of each allowed type must be. */
const MAGIC: Record<(typeof SUPPORT_FILE_TYPES)[number], (b: Buffer) => boolean> = {
  'application/pdf': (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
  'image/png': (b) => startsWith(b, PNG),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  'text/plain': isUtf8Text,
  'text/csv': isUtf8Text,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': (b) => startsWith(b, ZIP),
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': (b) => startsWith(b, ZIP),
  'application/vnd.ms-excel': (b) => startsWith(b, OLE),
  'application/msword': (b) => startsWith(b, OLE),
};

/** The normalised mime type of an acceptable attachment; throws the field error otherwise. */
export function checkAttachment(mimeType: string, bytes: Buffer): (typeof SUPPORT_FILE_TYPES)[number] {
  const mime = mimeType.split(';')[0]!.trim().toLowerCase() as (typeof SUPPORT_FILE_TYPES)[number];
  if (!(SUPPORT_FILE_TYPES as readonly string[]).includes(mime)) throw fieldError('file', SUPPORT_MESSAGES.fileTypeNotAllowed);
  if (bytes.length === 0) throw fieldError('file', SUPPORT_MESSAGES.fileEmpty);
  if (bytes.length > SUPPORT_LIMITS.fileMaxBytes) throw new AppError('PAYLOAD_TOO_LARGE', SUPPORT_MESSAGES.fileTooLarge);
  if (!MAGIC[mime](bytes)) throw fieldError('file', SUPPORT_MESSAGES.fileTypeNotAllowed);
  return mime;
}

/** A file name kept as metadata only: control characters and path separators become `_`. */
export function safeFileName(name: string): string {
  return [...name]
    .map((ch) => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f || ch === '/' || ch === '\\' ? '_' : ch))
    .join('')
    .slice(0, 200);
}
