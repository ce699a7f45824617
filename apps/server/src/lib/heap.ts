/**
 * One full collection of the V8 heap, when the process runs with `--expose-gc` (the start flags: package.json
 * "start", apps/server/README.md "Runtime"); nothing otherwise. Start-up only: a node collects what the bond import
 * left behind before it warms up its valuing code (`warmUpInventory`), never on a request's path.
 */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
