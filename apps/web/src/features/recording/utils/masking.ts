/**
 * What the recorder masks before anything leaves the browser (README "Masking"). Kept apart from rrweb so the rules
 * are unit-tested without it: every input, textarea and select value; the text of contenteditable regions; elements
 * marked `data-private` are not recorded at all (a same-sized placeholder replays instead).
 */

/** Elements recorded as an empty placeholder of the same size: nothing inside them is recorded. */
export const PRIVATE_SELECTOR = '[data-private]';
/** Text masked wherever it is typed without an input element (rich-text editors, contenteditable composers). */
export const MASKED_TEXT_SELECTOR = '[contenteditable]:not([contenteditable="false"]), [data-private-text]';

/** Secrets whose length is not recorded either: passwords and one-time codes (the type, autocomplete or name says so). */
export function isSecretField(element: HTMLElement): boolean {
  const input = element as HTMLInputElement;
  const type = (input.type ?? '').toLowerCase();
  const autocomplete = (element.getAttribute('autocomplete') ?? '').toLowerCase();
  const name = `${element.getAttribute('name') ?? ''} ${element.id ?? ''}`.toLowerCase();
  return type === 'password' || /one-time-code|password/.test(autocomplete) || /otp|password|passcode|\bpin\b/.test(name);
}

/** A masked value: secrets become a fixed mark (no length), any other value one `*` per character (typing still shows). */
export function maskInputValue(text: string, element: HTMLElement): string {
  if (isSecretField(element)) return text ? '••••' : '';
  return '*'.repeat(text.length);
}

/** A masked text: every non-space character becomes `*` (the layout of the text stays readable in the replay). */
export function maskText(text: string): string {
  return text.replace(/\S/g, '*');
}

/** The page address without its query and fragment: a search typed into the address must not leak through it. */
export function maskHref(href: string): string {
  try {
    const url = new URL(href);
    return `${url.origin}${url.pathname}`;
  } catch {
    return '';
  }
}

/** rrweb's event type of a page's meta data (`href`, size). */
const META_EVENT = 4;

/** Drops the query and fragment of every page address an event carries. */
export function scrubEvent<T extends { type: number; data?: unknown }>(event: T): T {
  if (event.type === META_EVENT && event.data && typeof event.data === 'object' && 'href' in event.data) {
    const data = event.data as { href: unknown };
    return { ...event, data: { ...data, href: typeof data.href === 'string' ? maskHref(data.href) : '' } };
  }
  return event;
}

/** The masking options given to rrweb's `record` (maskAllInputs covers every input type, textarea and select). */
export const MASKING_OPTIONS = {
  maskAllInputs: true,
  maskInputOptions: {
    color: true,
    date: true,
    'datetime-local': true,
    email: true,
    month: true,
    number: true,
    range: true,
    search: true,
    tel: true,
    text: true,
    time: true,
    url: true,
    week: true,
    textarea: true,
    select: true,
    password: true,
  },
  maskInputFn: maskInputValue,
  maskTextSelector: MASKED_TEXT_SELECTOR,
  maskTextFn: maskText,
  blockSelector: PRIVATE_SELECTOR,
} as const;
