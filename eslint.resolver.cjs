'use strict';
/**
 * An eslint-module-utils resolver (interface 2) for the layer rule: resolves the tsconfig path
 * aliases (`@qhorus/api`, ...; read from tsconfig.json, so they are declared once) and relative
 * `.ts` imports to files, so eslint-plugin-boundaries sees which layer an import lands in.
 * Everything else goes to the Node resolver. (eslint-import-resolver-typescript is not installed.)
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const nodeResolver = require('eslint-import-resolver-node');

const ROOT = __dirname;
const EXTENSIONS = ['.ts', '.js', '.cjs', '.mjs', '.json'];
const { paths } = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions;

/** `@qhorus/api` → libs/qhorus-api/src, `@qhorus/api/x` → libs/qhorus-api/src/x. */
const ALIASES = Object.entries(paths)
  .filter(([alias]) => !alias.endsWith('/*'))
  .map(([alias, [target]]) => ({ alias, target: join(ROOT, target) }));

function unalias(source) {
  for (const { alias, target } of ALIASES) {
    if (source === alias) return target;
    if (source.startsWith(`${alias}/`)) return join(target, source.slice(alias.length + 1));
  }
  return source;
}

exports.interfaceVersion = 2;
exports.resolve = (source, file) => nodeResolver.resolve(unalias(source), file, { extensions: EXTENSIONS });
