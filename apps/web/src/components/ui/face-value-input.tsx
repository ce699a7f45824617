import { TextInput, type TextInputProps } from '@mantine/core';
import { useState } from 'react';
import { describeFaceValueText } from '../../lib/face-value-text';

export interface FaceValueInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'description'> {
  /** The size as typed: `5cr`, `5 Cr`, `50L`, `2.5cr`, `5,00,00,000` (face value in rupees). */
  value: string;
  onChange: (text: string) => void;
  /** Rupees of face value in one bond of the chosen bond, when known: the bond count and whole-bond check. */
  perBond?: number | undefined;
  /** The form's (or server's) message; a size that is not a whole number of bonds is shown at once. */
  error?: string | undefined;
  /** Shown beneath while the field is empty. */
  hint?: string | undefined;
}

/**
 * A size in face value (issue 12 §1), entered with lakh/crore shorthand. Beneath it, live: what was
 * read (`₹5 Cr · 5,00,000 bonds`), or why it cannot be taken (not a whole number of bonds, unreadable).
 */
export function FaceValueInput({ value, onChange, perBond, error, hint, label = 'Face value (₹)', ...rest }: FaceValueInputProps) {
  const read = describeFaceValueText(value, perBond);
  // A definite refusal turns red once the user leaves the field (not at each keystroke of '5' → '5cr').
  const [left, setLeft] = useState(false);
  const live = left && read.kind === 'refused' && read.blocking ? read.message : undefined;
  return (
    <TextInput
      label={label}
      placeholder="e.g. 5cr, 50L, 5,00,00,000"
      inputMode="decimal"
      autoComplete="off"
      {...rest}
      value={value}
      onChange={(event) => {
        setLeft(false);
        onChange(event.currentTarget.value);
      }}
      onBlur={(event) => {
        setLeft(true);
        rest.onBlur?.(event);
      }}
      error={error ?? live}
      description={
        read.kind === 'read' ? (
          <span data-testid="face-value-preview">{read.text}</span>
        ) : read.kind === 'refused' && !live && !error ? (
          read.message
        ) : read.kind === 'empty' ? (
          (hint ?? null)
        ) : null
      }
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    />
  );
}
