import { VIEW_MIME_TYPE, VIEW_RESOURCE_META, viewHtml, viewUri, type ViewName } from '@switchyard/views';
import type { SwitchyardError } from '@switchyard/contracts/errors';
import type { ResourceContents, ToolSpec } from './tool-spec.js';

/** A view some listed tool names, and the tools its buttons may call. */
export interface CatalogView {
  name: ViewName;
  uri: string;
  /** The first domain whose tools use it (its log gets a failed read). */
  domain: string;
  /** Name in the domain -> name the client calls, for every listed tool of the domains that use the view. */
  callable: Record<string, string>;
}

/**
 * Adds the views of one domain's listed tools (`listed`: name in the domain -> exposed name) to `views`: a
 * view's buttons may call any listed tool of the domains that use it, and no tool the filters hide.
 */
export function addDomainViews(
  views: Map<string, CatalogView>,
  domain: string,
  specs: readonly Pick<ToolSpec, 'name' | 'view'>[],
  listed: ReadonlyMap<string, string>,
): void {
  for (const spec of specs) {
    if (spec.view === undefined || !listed.has(spec.name)) continue;
    const uri = viewUri(spec.view);
    const view = views.get(uri) ?? { name: spec.view, uri, domain, callable: {} };
    Object.assign(view.callable, Object.fromEntries(listed));
    views.set(uri, view);
  }
}

/** A failed view read as a JSON-RPC error's payload (server-kit's own resource, no domain's contract). */
export const VIEW_ERRORS = {
  errorPayload: (error: SwitchyardError) => ({
    error: { code: error.code ?? error.kind, message: error.message },
  }),
};

/** `resources/read` of a view: its page, typed and with the policy the MCP Apps extension reads. */
export async function readView(view: CatalogView): Promise<ResourceContents[]> {
  return [
    {
      uri: view.uri,
      mimeType: VIEW_MIME_TYPE,
      text: await viewHtml(view.name, view.callable),
      _meta: VIEW_RESOURCE_META,
    },
  ];
}
