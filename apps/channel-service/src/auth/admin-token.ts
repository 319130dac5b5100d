import { Logger } from '@nestjs/common';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppConfig } from '../config/app-config';
import { generateToken } from './tokens';

export const ADMIN_TOKEN_FILE = 'admin-token';
const OWNER_ONLY = 0o600;

/** The admin token: QHORUS_ADMIN_TOKEN, else one generated at first start and kept in the data dir. */
export function resolveAdminToken(config: AppConfig, logger = new Logger('AdminToken')): string {
  if (config.QHORUS_ADMIN_TOKEN) return config.QHORUS_ADMIN_TOKEN;
  const dir = resolve(config.QHORUS_DATA_DIR);
  const file = join(dir, ADMIN_TOKEN_FILE);
  if (existsSync(file)) {
    logger.log({ path: file }, 'admin token read from the data dir');
    return readFileSync(file, 'utf8').trim();
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, generateToken('qha_') + '\n', { mode: OWNER_ONLY });
  chmodSync(file, OWNER_ONLY);
  logger.log({ path: file }, 'admin token generated; read it from this file');
  return readFileSync(file, 'utf8').trim();
}
