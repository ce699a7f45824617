import classes from './layouts.module.css';

export const MAIN_CONTENT_ID = 'main-content';

/** First focusable element of every layout: jumps past the navigation. */
export function SkipLink() {
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className={classes.skipLink}>
      Skip to content
    </a>
  );
}
