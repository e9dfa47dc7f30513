/** Jest globalTeardown: stops what jest-global-setup.mjs started. */
export default async function globalTeardown() {
  await globalThis.cpcTestInfrastructure?.stop();
}
