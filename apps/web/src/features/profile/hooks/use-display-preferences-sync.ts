import { useEffect } from 'react';
import { applyDisplayPreferences } from '../../../lib/display-preferences';
import { useSession } from '../../../lib/session';
import { useDisplayPreferencesQuery } from '../api/display-preferences';

/**
 * Loads the signed-in user's display preferences from the server into the app's store (lib/format and
 * lib/sounds read it), so they follow the user to another machine. Mounted once, at the root.
 */
export function useDisplayPreferencesSync(): void {
  const { user } = useSession();
  const query = useDisplayPreferencesQuery(user?.user_info.id ?? null);
  useEffect(() => {
    if (query.data) applyDisplayPreferences(query.data);
  }, [query.data]);
}
