/**
 * Imported first by main.tsx. Zod 4 probes `new Function('')` once to decide whether to compile
 * fast parsers; our CSP forbids eval (script-src 'self'), so the probe logs a CSP violation on every
 * page. Jitless mode skips the probe and uses the interpreter, which is fast enough for form data.
 */
import { z } from 'zod';

z.config({ jitless: true });
