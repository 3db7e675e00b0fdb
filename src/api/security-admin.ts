
/** Security administration and stamps (the archive-ops spec §7). */
/** GET admin/stamps: the contract is src/api/annotations.ts. */
export { StampList } from './annotations';

export const securityAdminPaths = {
  isAdmin: '/api/userAdmin/isAdmin',
  secured: '/api/userAdmin/secured',
  unsecured: '/api/userAdmin/unsecured',
  s9groups: '/api/userAdmin/s9groups',
  tree: '/api/userAdmin/tree',
  /** GET (db, archive, username); POST. */
  archives: '/api/userAdmin/archives',
  /** GET (inbox, username); POST. */
  inboxes: '/api/userAdmin/inboxes',
  databases: '/api/userAdmin/databases',
  /** GET (db, username); POST. */
  searches: '/api/userAdmin/searches',
  searchType: '/api/userAdmin/searchType',
  /** POST (name, password, create flag); PUT (password, name); DELETE by name. */
  user: '/api/userAdmin/user',
  /** DELETE by name. */
  group: '/api/userAdmin/group',
  adminFields: '/api/adminFields',
  freeForms: '/api/FreeForms',
  stamps: '/api/admin/stamps',
} as const;
