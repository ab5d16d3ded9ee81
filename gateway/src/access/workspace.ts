export type NamedWorkspaces =
  | {
      ok: true;
      /** The workspace of the request (header first), or null. */ ws: number | null;
      /** Every id named. */ all: number[];
    }
  | { ok: false; message: string };

const MESSAGE = 'Workspace id must be an integer of at least 1';

/** Values a front-end sends for "no workspace" in a query string. */
const ABSENT = new Set(['', 'null', 'undefined']);

function parseId(raw: string): number | null {
  const text = raw.trim();
  if (!/^\d{1,16}$/.test(text)) return null;
  const id = Number(text);
  return id >= 1 && Number.isSafeInteger(id) ? id : null;
}

/**
 * The workspaces a request names where the gateway can see them without reading the body:
 * the `X-Workspace-ID` header (HTTP header names are case-insensitive, so `x-workspace-id`
 * is the same header) and the `workspaceId` query parameter. The request's workspace is the
 * header's, else the query's; every id named is checked against the caller's memberships.
 *
 * A `workspaceId` in a JSON or multipart body is not seen here (the gateway never parses
 * bodies): the services authorise it against the context's `roles`.
 */
export function namedWorkspaces(
  header: string | string[] | undefined,
  query: string,
): NamedWorkspaces {
  const all: number[] = [];
  let fromHeader: number | null = null;
  if (header !== undefined) {
    // Sent twice: Node joins the values with ", ", which is no id.
    const id = typeof header === 'string' ? parseId(header) : null;
    if (id === null) return { ok: false, message: MESSAGE };
    fromHeader = id;
    all.push(id);
  }
  let fromQuery: number | null = null;
  if (query) {
    // Keys decoded as the services' query parser decodes them (`workspace%49d`, and the
    // `workspaceId[]` / `workspaceId[0]` forms that parser turns into arrays).
    for (const [key, value] of new URLSearchParams(query)) {
      if (key !== 'workspaceId' && !key.startsWith('workspaceId[')) continue;
      if (ABSENT.has(value.trim())) continue;
      const id = parseId(value);
      if (id === null) return { ok: false, message: MESSAGE };
      fromQuery ??= id;
      if (!all.includes(id)) all.push(id);
    }
  }
  return { ok: true, ws: fromHeader ?? fromQuery, all };
}
