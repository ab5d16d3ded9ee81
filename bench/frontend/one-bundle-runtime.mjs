// Stands in for '@module-federation/enhanced/runtime' in the one-bundle build of the shell
// (one-bundle.mjs): the remotes' ./App modules are imported directly, so the shell, chat,
// generation and admin are compiled together into one bundle, without federation.
import * as admin from '../../frontends/admin/src/app/App.tsx';
import * as chat from '../../frontends/chat/src/app/App.tsx';
import * as generation from '../../frontends/generation/src/app/App.tsx';

const apps = { 'chat/App': chat, 'generation/App': generation, 'admin/App': admin };

export async function loadRemote(id) {
  return apps[id];
}
