/**
 * The `test` every spec imports: Playwright's, plus a guard that fails the test when any page of the
 * test (its `page`, and every page of every context it opens with `browser.newContext()`) logs a
 * console error, throws an uncaught error, or loses a request that was not given up on purpose.
 *
 * Given up on purpose, and so not a failure:
 * - requests of a page that navigated while they ran (a `goto`, a reload, a link, or the app's
 *   router leaving the view that asked), of a page the test closed, or of a context it took offline;
 * - console errors logged while the context was offline (the browser's own "net::ERR_INTERNET_DISCONNECTED");
 * - what the test declares with `consoleGuard.allow(/pattern/)` (e.g. the 401 a wrong password earns),
 *   matched against the problem's text, which carries the resource's URL.
 * A request cancelled by the app itself (an effect re-running, a panel mounting twice) is a failure:
 * nothing the user does explains it.
 */
import { test as base, type BrowserContext, type Page } from '@playwright/test';

export { expect } from '@playwright/test';

export interface ConsoleGuard {
  /** Declares a console error or failed request the test causes on purpose; the text matched names its URL. */
  allow(pattern: RegExp): void;
  /** What the guard has seen so far that is not allowed (for a test that checks one step at a time). */
  problems(): string[];
}

interface Watched {
  /** When the page's main frame started a navigation or moved to another URL (same document or not). */
  navigations: number[];
  closing: boolean;
}

interface FailedRequest {
  state: Watched;
  started: number;
  failed: number;
  text: string;
}

/** A navigation is reported a few milliseconds after the requests it cancels: it excuses them within this window. */
const NAVIGATION_REPORT_SLACK_MS = 300;

export const test = base.extend<{ consoleGuard: ConsoleGuard }>({
  consoleGuard: [
    async ({ browser, context }, use) => {
      const seen: string[] = [];
      const allowed: RegExp[] = [];
      const offline = new WeakSet<BrowserContext>();
      const watched = new WeakMap<Page, Watched>();
      let active = true;
      const note = (problem: string) => {
        if (active) seen.push(problem);
      };

      const failures: FailedRequest[] = [];
      const watchPage = (page: Page, owner: BrowserContext) => {
        if (watched.has(page)) return;
        const state: Watched = { navigations: [], closing: false };
        watched.set(page, state);
        const close = page.close.bind(page);
        page.close = async (options) => {
          state.closing = true;
          return close(options);
        };
        const started = new WeakMap<object, number>();
        page.on('request', (request) => {
          started.set(request, Date.now());
          if (request.isNavigationRequest() && request.frame() === page.mainFrame()) state.navigations.push(Date.now());
        });
        // Also same-document moves (the app's router): leaving a page cancels what it was loading.
        page.on('framenavigated', (frame) => {
          if (frame === page.mainFrame()) state.navigations.push(Date.now());
        });
        page.on('console', (message) => {
          if (message.type() !== 'error' || offline.has(owner)) return;
          const where = message.location().url;
          note(`console error on ${page.url()}: ${message.text()}${where ? ` (${where})` : ''}`);
        });
        page.on('pageerror', (error) => note(`uncaught error on ${page.url()}: ${error.stack ?? error.message}`));
        page.on('requestfailed', (request) => {
          if (!active || state.closing || page.isClosed() || offline.has(owner)) return;
          const failure = request.failure()?.errorText ?? '';
          failures.push({
            state,
            started: started.get(request) ?? Date.now(),
            failed: Date.now(),
            text: `failed request on ${page.url()}: ${request.method()} ${request.url()} ${failure}`.trim(),
          });
        });
      };

      const watchContext = (watchedContext: BrowserContext) => {
        const setOffline = watchedContext.setOffline.bind(watchedContext);
        watchedContext.setOffline = async (value) => {
          if (value) offline.add(watchedContext);
          await setOffline(value);
          // The browser reports what failed while offline a moment later: it stays excused until then.
          if (!value) setTimeout(() => offline.delete(watchedContext), 1_000);
        };
        const close = watchedContext.close.bind(watchedContext);
        watchedContext.close = async (options) => {
          for (const page of watchedContext.pages()) {
            const state = watched.get(page);
            if (state) state.closing = true;
          }
          return close(options);
        };
        watchedContext.on('page', (page) => watchPage(page, watchedContext));
        for (const page of watchedContext.pages()) watchPage(page, watchedContext);
      };

      // Every context the test opens is closed with it: a signed-in dock left open keeps its sockets, polls and
      // countdowns running through every later test of the worker, and the suite slowed down as they piled up.
      const opened: BrowserContext[] = [];
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const created = await newContext(options);
        opened.push(created);
        watchContext(created);
        return created;
      };
      watchContext(context);

      // A request is lost on purpose when its page navigated (or moved) between its start and its failure.
      const lost = () =>
        failures
          .filter(
            ({ state, started, failed }) => !state.navigations.some((at) => at >= started && at <= failed + NAVIGATION_REPORT_SLACK_MS),
          )
          .map(({ text }) => text);
      const unexpected = () => [...seen, ...lost()].filter((problem) => !allowed.some((pattern) => pattern.test(problem)));
      try {
        await use({ allow: (pattern) => void allowed.push(pattern), problems: unexpected });
        // The last failures' navigations may still be on their way.
        await new Promise((resolve) => setTimeout(resolve, NAVIGATION_REPORT_SLACK_MS));
      } finally {
        active = false;
        browser.newContext = newContext;
      }
      const problems = unexpected();
      await Promise.all(opened.map((opening) => opening.close().catch(() => undefined)));
      if (problems.length > 0) {
        throw new Error(`The browser console was not clean (${problems.length}):\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
      }
    },
    { auto: true },
  ],
});
