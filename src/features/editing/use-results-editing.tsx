/**
 * Index editing as the results screen places it (its editing slot, handed over by the results route):
 * the editing hook's rows and grid seam, and its controls, alerts and side panel as elements.
 */
import { EditAlerts, EditControls } from './components/edit-controls';
import { EditPanel } from './components/edit-panel';
import { useGridEditing, type GridEditingInput } from './use-grid-editing';

export function useResultsEditing(input: GridEditingInput) {
  const e = useGridEditing(input);
  return {
    rows: e.rows,
    grid: e.grid,
    canToggle: e.canToggle,
    canEditRow: e.canEditRow,
    editRow: e.editRow,
    controls: <EditControls e={e} />,
    alerts: <EditAlerts e={e} />,
    panel: <EditPanel e={e} />,
  };
}
