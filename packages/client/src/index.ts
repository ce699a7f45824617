export { createHttpClient, HttpError, TimeoutError } from './http';
export type { HttpClient, HttpClientOptions, HttpMethod, RequestOptions } from './http';
export { createApi } from './api';
export type { Api } from './api';
