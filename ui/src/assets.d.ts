/** Stylesheets imported for their side effect; Bun.build bundles them into the page's CSS file. */
declare module "*.css";
