/** Message custom types Dart's chat uses on top of the spec's user / file / admin types. */
export const BUZZ_CUSTOM_TYPE = 'buzz';
export const BUZZ_TEXT = 'Buzz!';
