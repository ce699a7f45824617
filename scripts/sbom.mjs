#!/usr/bin/env node
/**
 * Writes the CycloneDX SBOM of what ships (production dependencies of every workspace) to
 * dist/sbom.cdx.json on every build (RELIABILITY #46, CSCRF SBOM). It comes from the lockfile that
 * `npm ci` installed, so it names exactly the versions that run. Fails the build if the SBOM is
 * empty, malformed, or names a package without a version.
 * Usage: node scripts/sbom.mjs [output path]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const output = path.resolve(root, process.argv[2] ?? 'dist/sbom.cdx.json');
const result = spawnSync('npm', ['sbom', '--sbom-format', 'cyclonedx', '--sbom-type', 'application', '--omit', 'dev'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
if (result.status !== 0) {
  console.error(`sbom: npm sbom failed\n${result.stderr}`);
  process.exit(1);
}
const sbom = JSON.parse(result.stdout);
const components = Array.isArray(sbom.components) ? sbom.components : [];
const unversioned = components.filter((c) => !c.version || !c.purl);
if (sbom.bomFormat !== 'CycloneDX' || components.length === 0 || unversioned.length > 0) {
  console.error(
    `sbom: invalid SBOM (format ${sbom.bomFormat}, ${components.length} components, unversioned: ${unversioned.map((c) => c.name).join(', ')})`,
  );
  process.exit(1);
}
mkdirSync(path.dirname(output), { recursive: true });
writeFileSync(output, `${JSON.stringify(sbom, null, 2)}\n`);
console.log(`sbom: ${components.length} components (CycloneDX ${sbom.specVersion}) → ${path.relative(root, output)}`);
