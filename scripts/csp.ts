/** `npm run csp`: the Content-Security-Policy header to configure on a static host (see README). */
import { CONTENT_SECURITY_POLICY_HEADER } from '../src/util/csp.ts';

console.log(`Content-Security-Policy: ${CONTENT_SECURITY_POLICY_HEADER}`);
