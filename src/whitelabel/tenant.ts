/**
 * The white-label tenant of this page (decision 0265). On a workspace's verified domain the
 * server writes its brand into index.html as a JSON data block (`#cairn-tenant`) with the title,
 * icons and colours already in place, so nothing here waits for a request: the sidebar, the
 * sign-in card and page titles read the name at once. Elsewhere there is no block and the app is Cairn.
 */
export interface TenantBrand {
  tenantKey: string;
  workspaceId: number;
  name: string | null;
  logo: string | null;
  logoWide: string | null;
  loader: string | null;
  color: string | null;
  settings: Record<string, string>;
}

let read = false;
let brand: TenantBrand | null = null;

export function tenantBrand(): TenantBrand | null {
  if (read) return brand;
  read = true;
  try {
    const text = typeof document === 'undefined' ? null : document.getElementById('cairn-tenant')?.textContent;
    brand = text ? (JSON.parse(text) as TenantBrand) : null;
  } catch {
    brand = null;
  }
  return brand;
}

/** The product name people see: the tenant's, else Cairn. */
export function brandName(): string {
  return tenantBrand()?.name || 'Cairn';
}
