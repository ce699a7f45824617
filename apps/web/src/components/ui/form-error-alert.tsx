import { Alert } from '@mantine/core';
import { AlertIcon } from './icons';

/** The one sentence a failed submit shows above a form (announced to screen readers). */
export function FormErrorAlert({ message, title }: { message: string | null; title?: string }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<AlertIcon />} title={title} role="alert">
      {message}
    </Alert>
  );
}
