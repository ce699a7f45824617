import { TOAST, Z_INDEX } from '@dart/contracts';
import { Notifications } from '@mantine/notifications';
import { TOAST_GROUPS, toastStores } from '../lib/toast';

/** The root's toast areas, one per group (spec §9). */
export function ToastAreas() {
  return (
    <>
      {TOAST_GROUPS.map((group) => {
        const config: { position: (typeof TOAST.groups)[typeof group]['position']; width?: string } = TOAST.groups[group];
        return (
          <Notifications
            key={group}
            store={toastStores[group]}
            position={config.position}
            autoClose={TOAST.lifetimeMs}
            pauseResetOnHover="notification"
            zIndex={Z_INDEX.modal + 1}
            limit={group === 'connectivity' ? 2 : 5}
            {...(config.width ? { containerWidth: config.width } : {})}
            data-toast-group={group}
          />
        );
      })}
    </>
  );
}
