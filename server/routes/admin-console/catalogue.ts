/**
 * The field catalogue's calls (src/api/admin-catalogue.ts; services/catalogue.ts holds the rules
 * and the SQL): fields, tablefields and lists under api/admin/databases/{db}, and PUT .../lists/
 * (the test of an assembly-bound list). Every call is for an administrator of the database.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CatalogueField,
  CatalogueFieldList,
  CatalogueList,
  CatalogueListList,
  Deleted,
  FieldEdit,
  ListEdit,
  ListTest,
  TableField,
  TableFieldEdit,
  TableFieldList,
} from '../../../src/api/admin-catalogue.js';
import type { ServerContext } from '../../http/context.js';
import * as catalogue from '../../services/catalogue.js';
import { requireDbAdmin } from './require-admin.js';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const DbParams = z.object({ db: Id });
const OneParams = z.object({ db: Id, id: Id });
const base = '/api/admin/databases/:db';

export function catalogueRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store } = ctx;
  const db = async (request: Parameters<typeof requireDbAdmin>[1]) => {
    const { db: dbId } = DbParams.parse(request.params);
    await requireDbAdmin(store, request, dbId);
    return dbId;
  };
  const one = async (request: Parameters<typeof requireDbAdmin>[1]) => {
    const p = OneParams.parse(request.params);
    await requireDbAdmin(store, request, p.db);
    return p;
  };

  // Fields.
  app.get(`${base}/fields`, async (request) => CatalogueFieldList.parse(await catalogue.listFields(store, await db(request))));
  app.get(`${base}/fields/:id`, async (request) => {
    const p = await one(request);
    return CatalogueField.parse(await catalogue.getField(store, p.db, p.id));
  });
  app.post(`${base}/fields`, async (request) => {
    const dbId = await db(request);
    return CatalogueField.parse(await catalogue.saveField(store, dbId, null, FieldEdit.parse(request.body)));
  });
  app.put(`${base}/fields/:id`, async (request) => {
    const p = await one(request);
    return CatalogueField.parse(await catalogue.saveField(store, p.db, p.id, FieldEdit.parse(request.body)));
  });
  app.delete(`${base}/fields/:id`, async (request) => {
    const p = await one(request);
    await catalogue.deleteField(store, p.db, p.id);
    return Deleted.parse({ Id: p.id });
  });

  // Table fields.
  app.get(`${base}/tablefields`, async (request) => TableFieldList.parse(await catalogue.listTableFields(store, await db(request))));
  app.get(`${base}/tablefields/:id`, async (request) => {
    const p = await one(request);
    return TableField.parse((await catalogue.listTableFields(store, p.db, p.id))[0]);
  });
  app.post(`${base}/tablefields`, async (request) => {
    const dbId = await db(request);
    return TableField.parse(await catalogue.saveTableField(store, dbId, null, TableFieldEdit.parse(request.body)));
  });
  app.put(`${base}/tablefields/:id`, async (request) => {
    const p = await one(request);
    return TableField.parse(await catalogue.saveTableField(store, p.db, p.id, TableFieldEdit.parse(request.body)));
  });
  app.delete(`${base}/tablefields/:id`, async (request) => {
    const p = await one(request);
    await catalogue.deleteTableField(store, p.db, p.id);
    return Deleted.parse({ Id: p.id });
  });

  // Lists.
  app.get(`${base}/lists`, async (request) => CatalogueListList.parse(await catalogue.listLists(store, await db(request))));
  app.get(`${base}/lists/:id`, async (request) => {
    const p = await one(request);
    return CatalogueList.parse((await catalogue.listLists(store, p.db, p.id))[0]);
  });
  app.post(`${base}/lists`, async (request) => {
    const dbId = await db(request);
    return CatalogueList.parse(await catalogue.saveList(store, dbId, null, ListEdit.parse(request.body)));
  });
  // PUT .../lists/ (no id): test an assembly-bound list.
  app.put(`${base}/lists/`, async (request) => {
    await db(request);
    return ListTest.parse(await catalogue.testList(store, ListEdit.parse(request.body)));
  });
  app.put(`${base}/lists/:id`, async (request) => {
    const p = await one(request);
    return CatalogueList.parse(await catalogue.saveList(store, p.db, p.id, ListEdit.parse(request.body)));
  });
  app.delete(`${base}/lists/:id`, async (request) => {
    const p = await one(request);
    await catalogue.deleteList(store, p.db, p.id);
    return Deleted.parse({ Id: p.id });
  });
}
