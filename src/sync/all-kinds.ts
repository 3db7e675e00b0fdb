/**
 * Every outbox kind, registered by importing its module. Each context that drains (the page, a
 * worker, the service worker) imports this through drain.ts, so all of them know the same kinds; a
 * new kind adds its line here.
 */
import './kinds/field-data';
import './kinds/document-operation';
import './kinds/export-request';
import './kinds/merge';
import './kinds/bulk-update';
import './kinds/inbox';
import './kinds/import';
import './kinds/annotation';
