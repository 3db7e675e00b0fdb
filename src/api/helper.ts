/**
 * The local helper (extensions tray) on the loopback address (the user-app spec §7, §9). Response bodies
 * are not shown in the spec, so only paths are fixed here.
 */
export interface HelperAddress {
  port: number;
  sslPort: number;
  useSsl: boolean;
}

export function helperBaseUrl(a: HelperAddress): string {
  return a.useSsl ? `https://127.0.0.1:${a.sslPort}` : `http://127.0.0.1:${a.port}`;
}

export const helperPaths = {
  management: {
    test: '/api/Management/test',
    getApi: '/api/Management/GetApi',
    checkPackages: '/api/Management/CheckPackages',
    /** with category=0 */
    checkFeatures: '/api/Management/CheckFeatures',
    updateApi: '/api/Management/UpdateApi',
    install: '/api/Management/Install',
    uninstall: '/api/Management/Uninstall',
  },
  export: {
    fieldList: '/api/Export/FieldList',
    fields: '/api/Export/Fields',
    exportDocuments: '/api/Export/ExportDocuments',
    exportDocumentsToExcel: '/api/Export/ExportDocumentsToExcel',
  },
  import: { getcsvcolumns: '/api/Import/getcsvcolumns', importDocuments: '/api/Import/ImportDocuments' },
  update: {
    bulkUpdateDirect: '/api/Update/BulkUpdateDirect',
    bulkUpdateSearch: '/api/Update/BulkUpdateSearch',
    userPassedBulkUpdateSearch: '/api/Update/UserPassedBulkUpdateSearch',
    userPassedUpdateSearch: '/api/Update/UserPassedUpdateSearch',
  },
  count: {
    csvUpdateCount: '/api/Count/CSVUpdateCount',
    bulkUpdateSearchCount: '/api/Count/BulkUpdateSearchCount',
    basicSearchCount: '/api/Count/BasicSearchCount',
  },
  files: {
    selectfile: '/api/Files/selectfile',
    selectcsvfile: '/api/Files/selectcsvfile',
    savecsvfile: '/api/Files/savecsvfile',
    selectfolder: '/api/Files/selectfolder',
  },
  session: '/api/session',
  settings: '/api/settings',
  scan: '/api/scan',
  words: '/api/words',
  launch: '/api/launch',
  launchEntry: '/api/launchEntry',
  showSettings: '/api/ShowSettings',
  launchEmail: '/api/launch/email',
  launchInboxEmail: '/api/launch/inboxemail',
} as const;
