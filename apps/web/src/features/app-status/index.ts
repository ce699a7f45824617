/** App health in the browser: version check, build-manifest polling, connectivity toasts (spec §4). */
export { useVersionCheck } from './hooks/use-version-check';
export { useNewBuildNotice } from './hooks/use-new-build-notice';
export { useConnectivityToasts } from './hooks/use-connectivity-toasts';
