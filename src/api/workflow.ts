import * as z from 'zod/mini';

/** Workflow designer calls (the user-app spec §7; the archive-ops spec §7). */
export const WorkflowQueue = z.looseObject({ Key: z.string(), Name: z.optional(z.string()), WorkflowId: z.optional(z.int()) });
export const WorkflowQueueList = z.array(WorkflowQueue);

/** Node keys the spec renames to begin lowercase. */
export const WORKFLOW_LOWERCASE_KEYS = ['ID', 'CC', 'Conditions'] as const;

export const workflowPaths = {
  /** GET with dbid, token, nodeType=queue, or workflowid; POST with workflowid and token; DELETE with workflowid. */
  designer: '/api/workflowdesigner',
} as const;
