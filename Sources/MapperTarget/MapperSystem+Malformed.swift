import BooksTracker
import Foundation
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

    /// The `/v1/*` body of `response` (`{"success": true, "data": …}`, keys sorted) without the field at `missing`.
    /// The Swift export prints this text; a step writes the same text faster (`MalformedBody`).
    static func body(_ response: SpecResponse, missing: String) -> String {
        let data = (try? JSONEncoder().encode(dto(response))).flatMap { try? JSONSerialization.jsonObject(with: $0) } ?? [:]
        let envelope = removing(path(missing), from: ["success": true, "data": data])
        let json = (try? JSONSerialization.data(withJSONObject: envelope, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: json, as: UTF8.self)
    }

    /// `data.works[1].title` as keys and indexes: `["data", "works", 1, "title"]`.
    private static func path(_ text: String) -> [Any] {
        text.split(separator: ".").flatMap { component -> [Any] in
            let parts = component.split(separator: "[")
            return [String(parts[0])] + parts.dropFirst().compactMap { Int($0.dropLast()) }
        }
    }

    private static func removing(_ path: [Any], from value: Any) -> Any {
        guard let head = path.first else { return value }
        let rest = Array(path.dropFirst())
        if let key = head as? String, var object = value as? [String: Any] {
            if rest.isEmpty { object[key] = nil } else if let inner = object[key] { object[key] = removing(rest, from: inner) }
            return object
        }
        if let index = head as? Int, var array = value as? [Any], array.indices.contains(index) {
            array[index] = removing(rest, from: array[index])
            return array
        }
        return value
    }
}
