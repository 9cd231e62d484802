// pnpm hooks for this workspace.
//
// beforePacking shapes the package.json that goes into every tarball (`pnpm pack`, `pnpm publish`): the
// development-only fields go, so a published manifest never names the private workspace packages
// (@switchyard/upstream-mocks, @switchyard/hardening) nor scripts that only make sense in a clone.
module.exports = {
  hooks: {
    beforePacking(manifest) {
      delete manifest.devDependencies;
      delete manifest.scripts;
      return manifest;
    },
  },
};
