import { Column, type ColumnOptions, type ValueTransformer } from 'typeorm';
import { TableColumn, type TableColumnOptions } from 'typeorm';

/**
 * Portable column helpers. Timestamps are stored as epoch milliseconds in a BIGINT on both
 * PostgreSQL and SQLite: no time-zone conversion by drivers, one migration for both engines.
 */
const epochMs: ValueTransformer = {
  // undefined stays undefined so the column default applies on insert.
  to: (value: Date | null | undefined) => (value instanceof Date ? value.getTime() : value),
  from: (value: string | number | null) => (value === null || value === undefined ? null : new Date(Number(value))),
};

/** BIGINT read back as a JS number (pg returns BIGINT as a string). */
export const bigintNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null || value === undefined ? null : Number(value)),
};

export function TimestampColumn(options: Pick<ColumnOptions, 'nullable' | 'name'> = {}): PropertyDecorator {
  return Column({ type: 'bigint', transformer: epochMs, ...options });
}

export function BigIntColumn(options: Pick<ColumnOptions, 'nullable' | 'name' | 'default'> = {}): PropertyDecorator {
  return Column({ type: 'bigint', transformer: bigintNumber, ...options });
}

/** Column builders for migrations (`queryRunner.createTable(new Table({ columns: [...] }))`). */
export const col = {
  id: (name = 'id'): TableColumnOptions => ({
    name,
    type: 'integer',
    isPrimary: true,
    isGenerated: true,
    generationStrategy: 'increment',
  }),
  int: (name: string, opts: Partial<TableColumnOptions> = {}): TableColumnOptions => ({ name, type: 'integer', ...opts }),
  bigint: (name: string, opts: Partial<TableColumnOptions> = {}): TableColumnOptions => ({ name, type: 'bigint', ...opts }),
  timestamp: (name: string, opts: Partial<TableColumnOptions> = {}): TableColumnOptions => ({ name, type: 'bigint', ...opts }),
  varchar: (name: string, length = 255, opts: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
    name,
    type: 'varchar',
    length: String(length),
    ...opts,
  }),
  text: (name: string, opts: Partial<TableColumnOptions> = {}): TableColumnOptions => ({ name, type: 'text', ...opts }),
  bool: (name: string, defaultValue = false, opts: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
    name,
    type: 'boolean',
    default: defaultValue ? 'true' : 'false',
    ...opts,
  }),
  column: (options: TableColumnOptions): TableColumn => new TableColumn(options),
};
