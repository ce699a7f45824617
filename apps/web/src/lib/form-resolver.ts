import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A react-hook-form resolver for forms whose fields are flatter than the wire payload: the form
 * values are mapped to the payload, validated with the contract schema (same rules and messages
 * as the server), and each issue is put back on the form field it came from.
 */
export function payloadResolver<TForm extends FieldValues, TSchema extends z.ZodType>(
  schema: TSchema,
  toPayload: (values: TForm) => unknown,
  pathToField: Readonly<Record<string, keyof TForm & string>>,
): Resolver<TForm> {
  return async (values) => {
    const result = schema.safeParse(toPayload(values));
    if (result.success) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join('.');
      const field = pathToField[path] ?? pathToField[path.split('.')[0] ?? ''];
      if (field && !errors[field]) errors[field] = { type: issue.code, message: issue.message };
    }
    return { values: {}, errors: errors as FieldErrors<TForm> };
  };
}
