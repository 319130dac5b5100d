import { execFile } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** The fields of a package.json that npm reads from a registry's version document. */
const MANIFEST_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta', 'bin', 'engines', 'os', 'cpu', 'libc'];

interface Installed {
  dir: string;
  manifest: Record<string, unknown> & { name: string; version: string };
}

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/`, for `npm install --registry`. */
  url: string;
  /** What npm asked for (`GET <name>`, `GET <name>@<version>.tgz`), in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Every package installed under `nodeModules` (nested ones included), by name and version; symlinks (workspace links) left out. */
function indexPackages(nodeModules: string, index = new Map<string, Map<string, Installed>>()): Map<string, Map<string, Installed>> {
  if (!existsSync(nodeModules)) return index;
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    const dirs = entry.startsWith('@') ? readdirSync(join(nodeModules, entry)).map((scoped) => join(nodeModules, entry, scoped)) : [join(nodeModules, entry)];
    for (const dir of dirs) {
      if (lstatSync(dir).isSymbolicLink() || !existsSync(join(dir, 'package.json'))) continue;
      let manifest: Installed['manifest'];
      try {
        manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      if (typeof manifest.name !== 'string' || typeof manifest.version !== 'string') continue;
      const versions = index.get(manifest.name) ?? new Map<string, Installed>();
      if (!versions.has(manifest.version)) versions.set(manifest.version, { dir, manifest });
      index.set(manifest.name, versions);
      indexPackages(join(dir, 'node_modules'), index);
    }
  }
  return index;
}

/**
 * An npm registry on 127.0.0.1 that serves the packages already installed in `nodeModules`
 * (the repository's), each packed on first request as the tarball npm would fetch. A project
 * outside the repository installs third-party dependencies from it with no network and no npm
 * cache; a name it does not have (or one `withhold` names) is a 404, as a registry says.
 */
export async function startLocalRegistry(nodeModules: string, withhold: (name: string) => boolean = () => false): Promise<LocalRegistry> {
  const index = indexPackages(nodeModules);
  const work = mkdtempSync(join(tmpdir(), 'qhorus-registry-'));
  const packed = new Map<string, Promise<Buffer>>();
  const requests: string[] = [];

  /** The package's files under `package/`, gzipped: copied first, so the tar call is the same for GNU and BSD tar. */
  const tarball = (name: string, version: string): Promise<Buffer> => {
    const key = `${name}@${version}`;
    let pending = packed.get(key);
    if (!pending) {
      const { dir } = index.get(name)!.get(version)!;
      const stage = join(work, key.replace(/[@/]/g, '_'));
      mkdirSync(stage);
      cpSync(dir, join(stage, 'package'), { recursive: true, filter: (source) => !source.startsWith(join(dir, 'node_modules')) });
      const file = `${stage}.tgz`;
      pending = promisify(execFile)('tar', ['czf', file, '-C', stage, 'package']).then(() => readFileSync(file));
      packed.set(key, pending);
    }
    return pending;
  };

  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]).slice(1);
    const tgz = /^-\/(.+)\/(\d[^/]*)\.tgz$/.exec(path);
    const name = tgz ? tgz[1] : path;
    requests.push(tgz ? `GET ${name}@${tgz[2]}.tgz` : `GET ${name}`);
    const versions = withhold(name) ? undefined : index.get(name);
    if (!versions || (tgz && !versions.has(tgz[2]))) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not found' }));
      return;
    }
    if (tgz) {
      tarball(name, tgz[2]).then(
        (bytes) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes),
        (err: Error) => res.writeHead(500).end(err.message),
      );
      return;
    }
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const documents = [...versions.values()].map(({ manifest }) => [
      manifest.version,
      {
        name,
        version: manifest.version,
        ...Object.fromEntries(MANIFEST_FIELDS.filter((f) => manifest[f] !== undefined).map((f) => [f, manifest[f]])),
        dist: { tarball: `${base}/-/${name}/${manifest.version}.tgz` },
      },
    ]);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name, 'dist-tags': { latest: documents[documents.length - 1][0] }, versions: Object.fromEntries(documents) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(work, { recursive: true, force: true });
    },
  };
}
