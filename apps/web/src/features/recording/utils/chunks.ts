/** Splits the recorder's buffer into uploads within the server's limits (README "Uploads"). */

export interface ChunkLimits {
  maxBytes: number;
  maxEvents: number;
}

/**
 * Consecutive groups of events, each at most `maxEvents` long and at most `maxBytes` as JSON. An event larger than
 * `maxBytes` on its own cannot be stored and is counted in `dropped` (the replay skips it).
 */
export function splitIntoChunks<T>(events: readonly T[], limits: ChunkLimits): { chunks: T[][]; dropped: number } {
  const encoder = new TextEncoder();
  const chunks: T[][] = [];
  let current: T[] = [];
  // `[` and `]`, then a comma between events.
  let size = 2;
  let dropped = 0;
  for (const event of events) {
    const bytes = encoder.encode(JSON.stringify(event)).length;
    if (bytes + 2 > limits.maxBytes) {
      dropped++;
      continue;
    }
    const added = current.length === 0 ? bytes : bytes + 1;
    if (current.length > 0 && (size + added > limits.maxBytes || current.length >= limits.maxEvents)) {
      chunks.push(current);
      current = [];
      size = 2;
    }
    current.push(event);
    size += current.length === 1 ? bytes : bytes + 1;
  }
  if (current.length > 0) chunks.push(current);
  return { chunks, dropped };
}
