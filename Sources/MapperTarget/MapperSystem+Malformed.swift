import BooksTracker
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MapperSpec

/// M13: a response body that lacks a required field, mapped through `mapToWorks(json:context:)`.
extension MapperSystem {
    /// Maps the JSON body of `response` without the field at the coding path `missing`: the decoding error's path
    /// and whether the mapper's context changed (it must not); `done` if the body decoded after all.
    func mapMalformed(_ response: SpecResponse, missing: String) -> MapperObservation {
        let before = pendingChanges
        let body = MalformedBody.text(Self.dto(response), missing: missing)
        do {
            _ = try mapper.mapToWorks(json: Data(body.utf8), context: context)
            return .done
        } catch {
            return .rejected(path: error.path, contextChanged: pendingChanges != before)
        }
    }

    /// The mapper's context's pending inserts, changes and deletes, counted.
    private var pendingChanges: [Int] {
        [context.insertedModelsArray.count, context.changedModelsArray.count, context.hasChanges ? 1 : 0]
    }
}
