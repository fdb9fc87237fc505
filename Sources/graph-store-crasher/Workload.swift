import BooksTracker
import GraphStore

/// A small deterministic random source (SplitMix64): the workload depends on the seed alone.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// The saves the crasher performs: a seed's sequence of inserts, edits, links and deletes of BooksTracker
/// models, each batch ended by a save. The same seed gives the same saves on either backend.
struct Workload {
    let seed: UInt64
    let saves: Int

    /// Runs the workload on `container`, calling `saved(k)` after the k-th successful save.
    func run(on container: ModelContainer, saved: (Int) -> Void) throws {
        var random = SplitMix(state: seed)
        let context = ModelContext(container)
        var works: [Work] = []
        var authors: [Author] = []
        var done = 0
        for _ in 0..<saves {
            for _ in 0..<(1 + random.below(5)) {
                switch random.below(6) {
                case 0, 1:
                    let work = Work(title: "W\(random.below(1000))", subjectTags: (0..<random.below(3)).map { "t\($0)" })
                    context.insert(work)
                    if random.below(2) == 0 {
                        let edition = Edition(isbn: "I\(random.below(100))")
                        context.insert(edition)
                        edition.work = work
                    }
                    works.append(work)
                case 2:
                    let author = Author(name: "A\(random.below(100))")
                    context.insert(author)
                    authors.append(author)
                case 3 where !works.isEmpty && !authors.isEmpty:
                    let work = works[random.below(works.count)]
                    if work.authors.count < Work.maximumAuthors { work.authors.append(authors[random.below(authors.count)]) }
                case 4 where !works.isEmpty:
                    works[random.below(works.count)].title = "E\(random.below(1000))"
                case 5 where !works.isEmpty:
                    context.delete(works.remove(at: random.below(works.count)))
                default:
                    break
                }
            }
            try context.save()
            done += 1
            saved(done)
        }
    }

    /// The rows after each save, as fingerprints: `[0]` before the first save, `[k]` after the k-th. The
    /// workload runs on the in-memory backend.
    func expectedStates(schema: Schema) throws -> [UInt64] {
        let container = ModelContainer(schema: schema)
        defer { container.close() }
        var states = [fingerprint(container.rows)]
        try run(on: container) { _ in states.append(fingerprint(container.rows)) }
        return states
    }
}

/// A stable fingerprint of saved rows (FNV-1a over their canonical text, rows in entity and number order).
func fingerprint(_ rows: [PersistentIdentifier: Row]) -> UInt64 {
    let lines = rows.map { id, row in
        "\(id) \(row.values) \(row.links.map { $0.map(\.description) })"
    }.sorted()
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in lines.joined(separator: "\n").utf8 {
        hash ^= UInt64(byte)
        hash &*= 0x100_0000_01b3
    }
    return hash
}
