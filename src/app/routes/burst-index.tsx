import { SendToArchivePanel } from '../../features/inbox/components/send-to-archive-modal';
import { BurstIndexScreen } from '../../features/viewer/burst/burst-index-screen';
import { getConfig } from '../config';

/**
 * /view?ImportDoc=&RequestedPages=&deleteBurstedPages=&ogArchive=&ogDoc= (the archive-ops spec §2): a
 * burst's import document indexed into an archive. The archive choice for bursting is the inbox's
 * send-to-archive form (the same archives, fields and field rules), docked beside the pages (below
 * them on a portrait screen) rather than a dialog over them: composed here, as features do not import
 * each other.
 */
export function Component() {
  return <BurstIndexScreen baseUrl={getConfig().apiBaseUrl} ArchiveChoice={SendToArchivePanel} />;
}
