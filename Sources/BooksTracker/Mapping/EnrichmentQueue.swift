package import FaultPoints
import GraphStore

/// Seed 002's background enrichment: for the volume IDs of works to enrich it awaits their response
/// (`/v1/search/isbn`, fetched by the caller's `fetch`) and maps it with the shared `DTOMapper`, whose other callers
/// (search, the shelf scanner) may map into the same context while it waits.
///
/// The mapping runs after the await, whole and without suspending: whether a work already holds a volume ID is
/// decided in the same job that inserts one, so two enrichments of one volume ID make one work whatever runs
/// during their awaits.
public final class EnrichmentQueue {
    public let mapper: DTOMapper

    public init(mapper: DTOMapper) { self.mapper = mapper }

    /// Awaits the response for `volumeIDs`, then maps it into `context`; returns its works in response order. It runs
    /// in its caller's isolation, as `fetch` does (the main actor's, where the app's context lives), so the mapping
    /// never leaves the context's actor, whatever `fetch` awaits.
    public nonisolated(nonsending) func enrich(volumeIDs: [String], into context: ModelContext,
                                               fetch: nonisolated(nonsending) () async throws -> SearchResponseData) async rethrows -> [Work] {
        guard mapper.strategy.selects(.enrichmentDuplicateWork) else {
            let data = try await fetch()
            return mapper.mapToWorks(data, context: context)
        }
        let absent = volumeIDs.filter { !mapper.holdsWork($0, in: context) }
        let data = try await fetch()
        return mapper.mapToWorks(data, context: context, checkedAbsent: absent)
    }
}

extension Fault<DTOMapper> {
    /// Mutant `enrichment-duplicate-work`: an enrichment looks for the works of its volume IDs before it awaits the
    /// response and inserts new ones for those it did not find, whatever another caller mapped meanwhile (shipped:
    /// looked up after the await, in the job that inserts).
    package static var enrichmentDuplicateWork: Self { Self() }
}
