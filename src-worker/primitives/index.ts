/**
 * Primitives and composed scenes (issue 5 items 3–5), pure compute. See each module's header;
 * the pipeline in order:
 *
 *   cloud      SegmentCloudBuilder (segment-cloud.ts)     a log's hits, thinned, with ground truth and travel
 *   ground     GroundIndex (ground-index.ts), nonGroundMask (segments.ts)
 *   segments   segmentsFromAnnotation | segmentsFromClusters (segments.ts)
 *   library    extractPrimitives (extract.ts)             Primitive[] (primitive.ts)
 *   scene      composeScene | planComposition + buildComposedScene (compose.ts), ground (compose-ground.ts)
 */
export * from './primitive';
export * from './frame';
export * from './ground-index';
export * from './segment-cloud';
export * from './cluster';
export * from './classify';
export * from './object-pose';
export * from './segments';
export * from './patch';
export * from './extract';
export * from './select';
export * from './compose-ground';
export * from './compose';
