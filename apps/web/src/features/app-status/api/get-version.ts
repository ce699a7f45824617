import { api } from '../../../lib/api-client';

/** GET /version.json (no-cache): the deployed app version. */
export async function getVersion(): Promise<string> {
  return (await api.version()).version;
}
