// load/mixed.js as the memory benchmark runs it: the same scenarios, with the cookie jar kept
// between iterations (noCookiesReset). mixed.js signs each virtual user in once and reuses the
// session, but k6 empties a VU's cookie jar before every iteration by default, so without this
// every request after a VU's first iteration is answered 401 and the load is not the product's.
import { options as mixed } from '../../load/mixed.js';

export { browse, chat, textGeneration, imageGeneration, upload } from '../../load/mixed.js';
export const options = { ...mixed, noCookiesReset: true };
