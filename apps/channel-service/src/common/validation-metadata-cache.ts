import { getMetadataStorage } from 'class-validator';

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type TargetMetadatas = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;

const installed = new WeakSet<MetadataStorage>();

/**
 * Memoises class-validator's metadata lookup per validated class. For every object it validates
 * (each message of a batch is one), class-validator resolves the class's rules again, scanning
 * every registered class for ancestors (O(all DTOs), typestack/class-validator#2686), then groups
 * them by property. Both answers are fixed once the class is loaded: rules are registered by the
 * decorators when a class is defined, before any request can validate one, and a class defined
 * later adds rules only to itself. Grouped validation (`groups`) is passed through uncached.
 * The lookups are read-only for their callers (the validator, the ValidationPipe, mapped types).
 * Idempotent; installed by apiValidationPipe, the one place validation is configured.
 */
export function cacheValidationMetadata(storage: MetadataStorage = getMetadataStorage()): void {
  if (installed.has(storage)) return;
  installed.add(storage);
  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const byTarget = new WeakMap<object, Map<string, TargetMetadatas>>();
  const grouped = new WeakMap<TargetMetadatas, ReturnType<MetadataStorage['groupByPropertyName']>>();

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if ((groups && groups.length > 0) || typeof target !== 'function') return lookUp(target, schema, always, strictGroups, groups);
    let forTarget = byTarget.get(target);
    if (forTarget === undefined) byTarget.set(target, (forTarget = new Map()));
    const key = `${schema}\u0000${always}\u0000${strictGroups}`;
    let metadatas = forTarget.get(key);
    if (metadatas === undefined) forTarget.set(key, (metadatas = lookUp(target, schema, always, strictGroups, groups)));
    return metadatas;
  };
  storage.groupByPropertyName = (metadatas) => {
    let byProperty = grouped.get(metadatas);
    if (byProperty === undefined) grouped.set(metadatas, (byProperty = group(metadatas)));
    return byProperty;
  };
}
