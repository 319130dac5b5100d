import { AppConfig } from './app-config';

/**
 * The base of a feature's config slice (config.module.ts): `class XConfig extends configSlice((config) => ({ … }))`
 * keeps what `pick` takes from the one validated `AppConfig`, readonly, under the feature's own names.
 */
export function configSlice<T extends object>(pick: (config: AppConfig) => T): new (config: AppConfig) => Readonly<T> {
  return class ConfigSlice {
    constructor(config: AppConfig) {
      Object.assign(this, pick(config));
    }
  } as new (config: AppConfig) => Readonly<T>;
}
