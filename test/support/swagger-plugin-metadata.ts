import { SwaggerModule } from '@nestjs/swagger';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const APP_SOURCE = join(ROOT, 'apps/channel-service/src');
const SWAGGER_PLUGIN = '@nestjs/swagger';
const SWAGGER_PLUGIN_ENTRY = '@nestjs/swagger/plugin';

/** The @nestjs/swagger plugin options `nest build` uses (nest-cli.json): one source of truth. */
export function swaggerPluginOptions(): Record<string, unknown> {
  const nestCli = JSON.parse(readFileSync(join(ROOT, 'nest-cli.json'), 'utf8'));
  const plugin = (nestCli.compilerOptions?.plugins ?? []).find((p: { name?: string } | string) => (typeof p === 'string' ? p : p.name) === SWAGGER_PLUGIN);
  if (!plugin) throw new Error(`nest-cli.json enables no ${SWAGGER_PLUGIN} plugin`);
  return typeof plugin === 'string' ? {} : (plugin.options ?? {});
}

/**
 * Jest compiles with swc, where the @nestjs/swagger CLI plugin does not run, so DTOs would be
 * undescribed. This runs the plugin's own metadata generator over the sources with the options
 * of nest-cli.json and loads the result: the document under test is the one `nest build` serves.
 * (It takes a few seconds: a TypeScript program over the app.)
 */
export async function loadSwaggerPluginMetadata(): Promise<void> {
  // Imported lazily: dev-only tooling, and heavy.
  const { PluginMetadataGenerator } = await import('@nestjs/cli/lib/compiler/plugins/plugin-metadata-generator');
  // The package exports './plugin' (typed under dist/plugin, which this tsconfig's resolution cannot map).
  const { ReadonlyVisitor }: typeof import('@nestjs/swagger/dist/plugin') = await import(SWAGGER_PLUGIN_ENTRY);
  const outDir = mkdtempSync(join(tmpdir(), 'qhorus-openapi-'));
  try {
    new PluginMetadataGenerator().generate({
      visitors: [new ReadonlyVisitor({ ...swaggerPluginOptions(), pathToSource: APP_SOURCE })],
      outputDir: outDir,
      tsProgramRef: ReadonlyVisitor.createTsProgram(join(ROOT, 'tsconfig.build.json')),
      printDiagnostics: false,
    });
    // The generator writes imports relative to the app's sources; make them absolute so the
    // file loads from the temporary directory (and resolves to the very modules the app uses).
    const file = join(outDir, 'metadata.ts');
    const source = readFileSync(file, 'utf8').replace(/(["'])(\.\.?\/[^"']+)\1/g, (_, q: string, rel: string) => q + resolve(APP_SOURCE, rel) + q);
    writeFileSync(file, source);
    const { default: metadata } = await import(file);
    await SwaggerModule.loadPluginMetadata(metadata);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
