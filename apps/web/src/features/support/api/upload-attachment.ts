import type { SupportAttachment } from '@dart/contracts';
import { uploadFile } from '../../../lib/upload';

/**
 * POST /ext/public/upload/?fileName=: the body is the file with its own Content-Type (the server checks its first
 * bytes and scans it for viruses); answers the attachment whose id goes into a ticket or a reply.
 */
export function uploadAttachment(file: File, onProgress: (fraction: number) => void = () => undefined): Promise<SupportAttachment> {
  return uploadFile<SupportAttachment>(
    `/ext/public/upload/?fileName=${encodeURIComponent(file.name)}`,
    file,
    onProgress,
    undefined,
    file.type || 'application/octet-stream',
  );
}
