import { searchKeyword, unprocessable, Visibilities, type Visibility, formInt64 } from '@gitforge/contracts';

/** `GET /admin/users` filters, after Gitea's form parsing. */
export interface AdminUserFilter {
  keyword?: string;
  loginName?: string;
  sourceId?: number;
  visibility?: Visibility;
  isActive?: boolean;
  isAdmin?: boolean;
  isRestricted?: boolean;
  /** gitforge has no second factor: `true` matches nobody, `false` everybody. */
  is2faEnabled?: boolean;
  isProhibitLogin?: boolean;
  orderBy: { column: 'lower_name' | 'created_at' | 'updated_at' | 'id'; direction: 'ASC' | 'DESC' };
}

const SORT_COLUMNS = { name: 'lower_name', created: 'created_at', updated: 'updated_at', id: 'id' } as const;

/** Gitea's FormOptionalBool: strconv.ParseBool, anything unparsable (or absent) means "no filter". */
export function optionalBool(value: unknown): boolean | undefined {
  if (typeof value !== 'string') return undefined;
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(value)) return false;
  return undefined;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/**
 * Reads the query of `GET /admin/users` (openapi adminSearchUsers): unknown `sort`, `order` or
 * `visibility` values answer 422; `order` only counts together with `sort`; the default is by name.
 */
export function parseAdminUserFilter(query: Record<string, unknown>): AdminUserFilter {
  const sort = text(query.sort);
  const order = text(query.order);
  const visibility = text(query.visibility);
  // Gitea's ResolveSortOrder: without `sort` the order is ignored; the order is checked first.
  if (sort !== undefined) {
    if (order !== undefined && order !== 'asc' && order !== 'desc') throw unprocessable(`Invalid sort order: ${JSON.stringify(order)}`);
    if (!(sort in SORT_COLUMNS)) throw unprocessable(`Invalid sort mode: ${JSON.stringify(sort)}`);
  }
  if (visibility !== undefined && !(Visibilities as readonly string[]).includes(visibility)) throw unprocessable('invalid visibility');
  const sourceId = text(query.source_id) === undefined ? undefined : formInt64(query.source_id);
  return {
    keyword: text(searchKeyword(query.q)),
    loginName: text(query.login_name),
    sourceId: sourceId !== undefined && sourceId > 0 ? sourceId : undefined,
    visibility: visibility as Visibility | undefined,
    isActive: optionalBool(query.is_active),
    isAdmin: optionalBool(query.is_admin),
    isRestricted: optionalBool(query.is_restricted),
    is2faEnabled: optionalBool(query.is_2fa_enabled),
    isProhibitLogin: optionalBool(query.is_prohibit_login),
    orderBy: {
      column: SORT_COLUMNS[(sort ?? 'name') as keyof typeof SORT_COLUMNS],
      direction: sort !== undefined && order === 'desc' ? 'DESC' : 'ASC',
    },
  };
}
