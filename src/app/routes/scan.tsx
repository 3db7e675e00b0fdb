import { ViewPage } from './view';

export function Component() {
  return <ViewPage mode="scan" />;
}
