import { HttpError } from '@dart/client';
import { SUPPORT_MESSAGES } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { attachmentsError, ticketErrorMessage, uploadErrorMessage } from './support-errors';

const file = (name: string, type: string, size: number) => new File([new Uint8Array(size)], name, { type });

describe('support errors', () => {
  it("shows the server's message, else the spec's fallbacks", () => {
    const refused = new HttpError(400, {
      code: 'VALIDATION_FAILED',
      message: 'Bad',
      errors: { file: ['The file was rejected by the virus scan.'] },
    });
    expect(uploadErrorMessage(refused)).toBe('The file was rejected by the virus scan.');
    expect(ticketErrorMessage(new HttpError(409, { code: 'CONFLICT', message: 'Closed.' }))).toBe('Closed.');
    expect(ticketErrorMessage(new TypeError('Failed to fetch'))).toBe('Error creating intercom ticket');
    expect(uploadErrorMessage(new TypeError('Network error'))).toBe('Error uploading file');
  });

  it('checks attachments with the server rules before uploading', () => {
    expect(attachmentsError([file('a.png', 'image/png', 10)])).toBeNull();
    expect(attachmentsError([file('a.exe', 'application/x-msdownload', 10)])).toBe(SUPPORT_MESSAGES.fileTypeNotAllowed);
    expect(attachmentsError([file('a.png', 'image/png', 0)])).toBe(SUPPORT_MESSAGES.fileEmpty);
    expect(attachmentsError([file('big.pdf', 'application/pdf', 10 * 1024 * 1024 + 1)])).toBe(SUPPORT_MESSAGES.fileTooLarge);
    expect(attachmentsError(Array.from({ length: 6 }, (_, i) => file(`${i}.png`, 'image/png', 1)))).toBe(
      SUPPORT_MESSAGES.tooManyAttachments,
    );
  });
});
