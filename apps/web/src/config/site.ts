/** Product-wide settings of the web app. */
export const PRODUCT_NAME = 'Dart';
export const SUPPORT_EMAIL = 'support@dart.example';
/** Where the 410 page's website, blog and learn-more links point. */
export const SITE_LINKS = {
  website: '/',
  blog: '/best-practices',
  learnMore: '/product/dart',
} as const;
