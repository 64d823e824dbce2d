/**
 * What an image costs in the prompt, by OpenAI's documented rule for `detail: "high"` (the
 * default `auto` picks it for large images): the image is scaled to fit 2048×2048, then its
 * shorter side to 768 pixels, and costs 85 tokens plus 170 for each 512-pixel tile.
 *
 * @module
 */

const BASE_TOKENS = 85;
const TILE_TOKENS = 170;
const TILE = 512;
const MAX_SIDE = 2048;
const SHORT_SIDE = 768;

/**
 * The tokens an image of `width` × `height` pixels is counted as.
 * Contract: pure; at least 85 for any size.
 */
export function estimateImageTokens(size: { width: number; height: number }): number {
  let { width, height } = size;
  const fit = Math.min(1, MAX_SIDE / Math.max(width, height));
  width *= fit;
  height *= fit;
  const shorten = Math.min(1, SHORT_SIDE / Math.min(width, height));
  width *= shorten;
  height *= shorten;
  return BASE_TOKENS + TILE_TOKENS * Math.ceil(width / TILE) * Math.ceil(height / TILE);
}
