/**
 * Column lists are kept as `'a, b, c'` strings next to each entity (CHANNEL_COLUMNS, …). These
 * rewrite one for a statement that joins tables: every column under a table alias, and with an
 * output prefix when two tables share column names (`id`, `created_at`).
 */
export function columnNames(columns: string): string[] {
  return columns.split(', ');
}

/** `'a, b'` → `'c.a, c.b'`. */
export function qualifiedColumns(alias: string, columns: string): string {
  return columnNames(columns)
    .map((c) => `${alias}.${c}`)
    .join(', ');
}
