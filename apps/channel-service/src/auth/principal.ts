/** Who is calling: the operator (admin token) or a registered agent. */
export type Principal = { readonly kind: 'admin'; readonly name: string } | { readonly kind: 'agent'; readonly name: string };

export const ADMIN_NAME = 'admin';
export const ADMIN: Principal = Object.freeze({ kind: 'admin', name: ADMIN_NAME });

export const isAdmin = (p: Principal): boolean => p.kind === 'admin';
