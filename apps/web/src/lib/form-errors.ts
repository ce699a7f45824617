import { HttpError } from '@dart/client';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { describeError } from './errors';

/**
 * Puts the server's field errors (`errors: { field: [messages] }`) on the matching form fields and
 * returns the sentence to show above the form (the first field error, as the spec says).
 * `fieldMap` renames server paths (e.g. `identity.first_name`) to form field names.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly FieldPath<T>[],
  fieldMap: Readonly<Record<string, FieldPath<T>>> = {},
): string {
  if (error instanceof HttpError && error.body.errors) {
    for (const [serverField, messages] of Object.entries(error.body.errors)) {
      const field = fieldMap[serverField] ?? (fields as readonly string[]).find((name) => name === serverField);
      const message = messages[0];
      if (field && message) setError(field as FieldPath<T>, { type: 'server', message });
    }
  }
  return describeError(error);
}
