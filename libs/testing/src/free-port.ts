/**
 * A TCP port free on 127.0.0.1 at the time of asking: for a server a test starts in another process, which cannot
 * listen on port 0 and tell. A server in the test's own process listens on port 0 instead.
 */
export { findFreePort } from '@cpc/platform-launcher';
