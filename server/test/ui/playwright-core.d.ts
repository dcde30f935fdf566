// playwright-core is not a dependency of cairn (.ci/run installs it into a temp prefix for the
// browser tests), so its types are not installed: the tests use it untyped.
declare module 'playwright-core';
