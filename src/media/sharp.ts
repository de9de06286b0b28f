// sharp (libvips) is loaded at the first image a process handles, not at start: the native library and
// its bindings hold about 20 MB of resident memory that a process serving no uploads never needs
// (docs/performance.md, "Start-up and idle memory").
import type { Sharp, SharpOptions } from "sharp";

type SharpFactory = (input: Buffer, options?: SharpOptions) => Sharp;
let loading: Promise<SharpFactory> | undefined;

export function loadSharp(): Promise<SharpFactory> {
  return (loading ??= import("sharp").then(({ default: sharp }) => {
    // libvips' operation cache keeps recent results for reuse, which uploads and previews never are
    sharp.cache(false);
    return sharp as SharpFactory;
  }));
}
