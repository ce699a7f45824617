/**
 * The API latency SLO and its slowdown alert (RELIABILITY #45, SEBI's glitch framework): every HTTP
 * response's duration goes into the current minute's histogram; when a minute closes its p99 is
 * compared with the objective. `breachMinutes` bad minutes in a row raise one alert (an `error` log
 * line `SLO breach`, which the log pipeline pages on, and `ok: false` in /api/health); the first good
 * minute after that logs `SLO recovered`. Minutes with fewer than `minSamples` requests say nothing
 * either way (a quiet night is not a slowdown, and a single slow call is not a p99).
 *
 * Histogram buckets grow by 10 %, so a p99 is exact to within 10 % at a fixed cost per request.
 */
import type { Logger } from 'pino';

export interface SloOptions {
  /** The objective: p99 per minute at most this many ms. */
  p99Ms: number;
  /** Consecutive minutes above it that raise the alert. */
  breachMinutes: number;
  minSamples?: number;
  now?: () => number;
  logger?: Pick<Logger, 'error' | 'info'>;
}

export interface SloStatus {
  ok: boolean;
  objective_p99_ms: number;
  /** p99 of the last closed minute (null when it had too few requests). */
  last_minute_p99_ms: number | null;
  /** Consecutive closed minutes above the objective. */
  breach_minutes: number;
}

const GROWTH = 1.1;
const BUCKETS = 160; // 1.1^160 ms ≈ 4 × 10^6 ms: everything beyond lands in the last bucket.
const bucketOf = (ms: number) => (ms <= 1 ? 0 : Math.min(BUCKETS - 1, Math.ceil(Math.log(ms) / Math.log(GROWTH))));
const upperOf = (bucket: number) => GROWTH ** bucket;

export function createSloMonitor(options: SloOptions) {
  const now = options.now ?? Date.now;
  const minSamples = options.minSamples ?? 20;
  let minute = Math.floor(now() / 60_000);
  let counts = Array.from({ length: BUCKETS }, () => 0);
  let samples = 0;
  let breaches = 0;
  let alerting = false;
  let lastP99: number | null = null;

  function p99Of(histogram: number[], total: number): number {
    const rank = Math.ceil(total * 0.99);
    let seen = 0;
    for (let b = 0; b < BUCKETS; b++) {
      seen += histogram[b]!;
      if (seen >= rank) return upperOf(b);
    }
    return upperOf(BUCKETS - 1);
  }

  /** Closes every minute that has ended (an idle stretch closes as empty minutes). */
  function roll(): void {
    const current = Math.floor(now() / 60_000);
    while (minute < current) {
      if (samples >= minSamples) {
        lastP99 = p99Of(counts, samples);
        if (lastP99 > options.p99Ms) {
          breaches++;
          if (breaches === options.breachMinutes) {
            alerting = true;
            options.logger?.error(
              { slo_p99_ms: options.p99Ms, p99_ms: Math.round(lastP99), minutes: breaches },
              'SLO breach: API p99 above the objective',
            );
          }
        } else {
          if (alerting) options.logger?.info({ slo_p99_ms: options.p99Ms, p99_ms: Math.round(lastP99) }, 'SLO recovered');
          breaches = 0;
          alerting = false;
        }
      } else lastP99 = null;
      counts = Array.from({ length: BUCKETS }, () => 0);
      samples = 0;
      minute++;
      // After a long idle gap there is nothing left to judge: jump to the present.
      if (current - minute > 2) minute = current;
    }
  }

  return {
    record(durationMs: number): void {
      roll();
      counts[bucketOf(durationMs)]!++;
      samples++;
    },
    status(): SloStatus {
      roll();
      return {
        ok: !alerting,
        objective_p99_ms: options.p99Ms,
        last_minute_p99_ms: lastP99 === null ? null : Math.round(lastP99),
        breach_minutes: breaches,
      };
    },
  };
}
export type SloMonitor = ReturnType<typeof createSloMonitor>;
