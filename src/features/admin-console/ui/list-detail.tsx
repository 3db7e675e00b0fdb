import type { ReactNode } from 'react';

/**
 * The console's list/detail layout: the list beside the detail on a wide screen, above it on a
 * narrow one (tablet portrait). Both panes scroll on their own.
 */
export function ListDetail(props: { listLabel: string; list: ReactNode; detail: ReactNode; detailLabel?: string }) {
  return (
    <div className="admin-list-detail">
      <section className="admin-list-pane" aria-label={props.listLabel}>
        {props.list}
      </section>
      <section className="admin-detail-pane" aria-label={props.detailLabel}>
        {props.detail}
      </section>
    </div>
  );
}
