/**
 * Primitives and composed scenes (docs/methods.md §3), pure compute; the primitive itself is src-common/primitive.ts. See each module's header;
 * the pipeline in order:
 *
 *   cloud      SegmentCloudBuilder (segment-cloud.ts)     a log's hits, thinned, with ground truth and travel
 *   ground     GroundIndex (ground-index.ts), nonGroundMask (segments.ts)
 *   segments   segmentsFromAnnotation | segmentsFromClusters (segments.ts)
 *   library    extractPrimitives (extract.ts)             Primitive[] (primitive.ts)
 *   scene      composeScene | planComposition + buildComposedScene (compose.ts), ground (compose-ground.ts)
 */
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
