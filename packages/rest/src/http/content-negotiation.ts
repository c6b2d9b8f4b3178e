import { NotAcceptable, NotFound } from '@pagewise/core';
import { type MediaType, mediaTypePrecedence, parseAccept, parseMediaType } from '../request/media-type.js';
import type { Renderer } from './renderers.js';

/**
 * The outcome of content negotiation for one request.
 *
 * @example
 * selectRenderer({ accept: 'text/html' }, defaultRenderers).contentType // 'text/html; charset=utf-8'
 */
export interface Negotiated {
  readonly renderer: Renderer;
  /**
   * DRF's `accepted_media_type`: the client's range verbatim when it is at least as specific as
   * the renderer's type, otherwise the renderer's type followed by the range's parameters, so
   * `*\/*; version=2` becomes `application/json;version=2`.
   */
  readonly acceptedMediaType: string;
  /** The `Content-Type` to answer with. */
  readonly contentType: string;
}

/**
 * What negotiation reads from a request.
 *
 * @example
 * selectRenderer({ accept: request.headers.get('accept'), format: 'json' }, defaultRenderers)
 */
export interface NegotiationInput {
  /** The `Accept` header; missing means `*\/*`. */
  readonly accept: string | null;
  /** A format from the URL (`?format=json` or a `.json` suffix); restricts the renderers. */
  readonly format?: string | null;
}

function rangeServes(range: MediaType, renderer: Renderer, rendererType: MediaType): boolean {
  if (range.type === '*') return true;
  if (range.type !== rendererType.type) return false;
  if (range.subtype === '*' || range.subtype === rendererType.subtype) return true;
  return renderer.accepts?.(range) ?? false;
}

function contentTypeOf(renderer: Renderer, served: MediaType, rendererType: MediaType): string {
  const exact = served.type === rendererType.type && served.subtype === rendererType.subtype;
  // A vendor type the renderer accepted is named back, so a strict client sees what it asked for.
  const base =
    served.type !== '*' && served.subtype !== '*' && !exact
      ? `${served.type}/${served.subtype}`
      : renderer.mediaType;
  return renderer.charset ? `${base}; charset=${renderer.charset}` : base;
}

/**
 * DRF's `DefaultContentNegotiation.select_renderer`, with q-values honoured.
 *
 * Each renderer is judged by the most specific range that covers it (so `application/json;q=0,
 * *\/*` refuses JSON); the renderer with the highest quality wins, then the more specific match,
 * then the renderer listed first. `?format=` keeps only the renderers of that format (none: 404).
 * Nothing acceptable: 406 `Could not satisfy the request Accept header.`
 *
 * @example
 * selectRenderer({ accept: '*\/*; version=2' }, [jsonRenderer]).acceptedMediaType // 'application/json;version=2'
 */
export function selectRenderer(input: NegotiationInput, renderers: readonly Renderer[]): Negotiated {
  let candidates = renderers;
  if (input.format) {
    candidates = renderers.filter((renderer) => renderer.format === input.format);
    if (candidates.length === 0) throw new NotFound();
  }
  const ranges = parseAccept(input.accept);
  let best: { renderer: Renderer; type: MediaType; range: MediaType; precedence: number } | null = null;
  for (const renderer of candidates) {
    const rendererType = parseMediaType(renderer.mediaType);
    let chosen: MediaType | null = null;
    let chosenPrecedence = -1;
    for (const range of ranges) {
      if (!rangeServes(range, renderer, rendererType)) continue;
      const precedence = mediaTypePrecedence(range);
      if (precedence > chosenPrecedence) {
        chosen = range;
        chosenPrecedence = precedence;
      }
    }
    if (chosen === null || chosen.quality <= 0) continue;
    if (
      best === null ||
      chosen.quality > best.range.quality ||
      (chosen.quality === best.range.quality && chosenPrecedence > best.precedence)
    ) {
      best = { renderer, type: rendererType, range: chosen, precedence: chosenPrecedence };
    }
  }
  if (best === null) throw new NotAcceptable();
  const { renderer, type, range, precedence } = best;
  const acceptedMediaType =
    mediaTypePrecedence(type) > precedence
      ? [renderer.mediaType, ...Object.entries(range.params).map(([key, value]) => `${key}=${value}`)].join(
          ';',
        )
      : range.text;
  return { renderer, acceptedMediaType, contentType: contentTypeOf(renderer, range, type) };
}

/**
 * The first renderer, used when negotiation itself failed and the error still needs a body
 * (DRF's `perform_content_negotiation(force=True)`).
 *
 * @example
 * forcedRenderer(defaultRenderers).renderer // jsonRenderer
 */
export function forcedRenderer(renderers: readonly Renderer[]): Negotiated {
  const renderer = renderers[0];
  if (renderer === undefined) throw new TypeError('A view needs at least one renderer');
  const contentType = renderer.charset
    ? `${renderer.mediaType}; charset=${renderer.charset}`
    : renderer.mediaType;
  return { renderer, acceptedMediaType: renderer.mediaType, contentType };
}
