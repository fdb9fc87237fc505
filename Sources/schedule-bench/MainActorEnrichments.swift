import BooksTracker
import GraphStore
import MapperTarget

/// The mapper mutant's concurrency test as the app runs it: the context and its enrichments on the main actor, each
/// response awaited from a task on the global executor (a network call's hop to another thread and back).
@MainActor
final class MainActorEnrichments {
    private let app = MapperExportFixture(behavior: StoreBehavior(), mapper: DTOMapper(strategy: MapperStrategy(.enrichmentDuplicateWork)))
    private let volumeID = "vol-A"

    /// Two enrichments of one volume ID into an empty context as child tasks; whether two works hold it afterwards.
    func duplicate() async -> Bool {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 { group.addTask { await self.enrich() } }
        }
        let volumeID = volumeID
        return ((try? app.context.fetchCount(FetchDescriptor<Work>(predicate: { $0.googleBooksVolumeIDs.contains(volumeID) }))) ?? 0) > 1
    }

    private func enrich() async {
        let response = SearchResponseData(works: [WorkDTO(id: "w1", title: "Dune", googleBooksVolumeIDs: [volumeID])])
        _ = await EnrichmentQueue(mapper: app.mapper).enrich(volumeIDs: [volumeID], into: app.context) {
            await Task.detached {}.value
            return response
        }
    }
}
